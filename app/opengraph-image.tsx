import { ImageResponse } from 'next/og'

import { BrandMark, cardBrandName, SIGNAL_YELLOW, SocialCardFrame } from '@/components/social-card'
import { getLandingPage, getSiteSettings } from '@/lib/content'
import { fitInside, imageDataUrl, SOCIAL_IMAGE_SIZE, socialImageFonts } from '@/lib/social-image'

export const alt = 'Vigia: detecção de fadiga e distração para frotas'
export const size = SOCIAL_IMAGE_SIZE
export const contentType = 'image/png'
export const revalidate = 3600

export default async function OpenGraphImage() {
  const [settings, page, fonts] = await Promise.all([
    getSiteSettings(),
    getLandingPage(),
    socialImageFonts(),
  ])

  // An editor's sharing image replaces the generated card entirely.
  const shareImage = await imageDataUrl(settings?.seo?.shareImage, { ...size, format: 'jpg' })
  if (shareImage) {
    return new ImageResponse(
      <img src={shareImage} alt="" width={size.width} height={size.height} />,
      { ...size, fonts },
    )
  }

  const visual = page?.hero?.visual
  const visualBox = visual ? fitInside(visual, { width: 420, height: 486 }) : null
  const visualSource = visualBox
    ? await imageDataUrl(visual, { ...visualBox, format: 'png' })
    : null

  return new ImageResponse(
    <SocialCardFrame style={{ alignItems: 'center', gap: 48 }}>
      <div
        style={{
          flex: 1,
          height: '100%',
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'space-between',
        }}
      >
        <BrandMark scale="large">
          <div style={{ display: 'flex', flexDirection: 'column' }}>
            <span>{cardBrandName(settings)}</span>
            <span style={{ fontSize: 24, color: '#cbd5e1' }}>{settings?.tagline ?? ''}</span>
          </div>
        </BrandMark>
        <div style={{ fontSize: visualSource ? 56 : 68, fontWeight: 800, lineHeight: 1.1 }}>
          {page?.hero?.headline ?? settings?.seo?.title ?? ''}
        </div>
        <div style={{ fontSize: visualSource ? 24 : 28, color: SIGNAL_YELLOW, fontWeight: 700 }}>
          Fadiga · Sonolência · Distração, em tempo real
        </div>
      </div>
      {visualSource && visualBox ? (
        <img
          src={visualSource}
          alt=""
          width={visualBox.width}
          height={visualBox.height}
          style={{ borderRadius: 28 }}
        />
      ) : null}
    </SocialCardFrame>,
    { ...size, fonts },
  )
}

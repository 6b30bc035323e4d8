import { notFound } from 'next/navigation'
import { ImageResponse } from 'next/og'
import { stegaClean } from 'next-sanity'

import { BrandMark, cardBrandName, SIGNAL_YELLOW, SocialCardFrame } from '@/components/social-card'
import { getArticle, getSiteSettings } from '@/lib/content'
import { croppedSize, isLocalAsset, type ContentImage } from '@/lib/content/image-url'
import {
  coverPlacement,
  imageDataUrl,
  SOCIAL_IMAGE_SIZE,
  socialImageFonts,
} from '@/lib/social-image'

// An article's social card, never the site's: its sharing image or cover cut to 1200 × 630
// around the editor's hotspot, or, without either, a card with the article's title.
export const alt = 'Artigo da Vigia'
export const size = SOCIAL_IMAGE_SIZE
export const contentType = 'image/png'
export const revalidate = 3600

/** The picture filling the card, or null when there is none or it cannot be read. */
async function picture(image: ContentImage | null | undefined) {
  const src = await imageDataUrl(image, { ...size, format: 'jpg' })
  if (!src || !image) return null
  // The image CDN has already cut it to the card; a bundled file is placed around its hotspot.
  if (!isLocalAsset(image)) return { src, placement: { ...size, left: 0, top: 0 } }
  const source = croppedSize(image)
  return source ? { src, placement: coverPlacement(source, size, image.hotspot) } : null
}

type Props = { params: Promise<{ slug: string }> }

export default async function ArticleSocialImage({ params }: Props) {
  const { slug } = await params
  const [article, settings, fonts] = await Promise.all([
    getArticle(slug),
    getSiteSettings(),
    socialImageFonts(),
  ])
  if (!article?.title) notFound()

  const cover = await picture(article.seo?.shareImage ?? article.cover)
  if (cover) {
    const { placement } = cover
    return new ImageResponse(
      <div
        style={{
          width: '100%',
          height: '100%',
          display: 'flex',
          position: 'relative',
          overflow: 'hidden',
          background: '#07142b',
        }}
      >
        <img
          src={cover.src}
          alt=""
          width={placement.width}
          height={placement.height}
          style={{ position: 'absolute', left: placement.left, top: placement.top }}
        />
      </div>,
      { ...size, fonts },
    )
  }

  const title = stegaClean(article.title)
  const category = article.categories?.[0]?.title
  return new ImageResponse(
    <SocialCardFrame style={{ flexDirection: 'column', justifyContent: 'space-between' }}>
      <BrandMark scale="small">
        <span>{cardBrandName(settings)}</span>
        <span style={{ color: '#cbd5e1', fontSize: 28 }}>· Conteúdos</span>
      </BrandMark>
      <div style={{ fontSize: title.length > 70 ? 56 : 66, fontWeight: 800, lineHeight: 1.12 }}>
        {title}
      </div>
      <div style={{ fontSize: 28, color: SIGNAL_YELLOW, fontWeight: 700 }}>
        {category ? stegaClean(category) : ' '}
      </div>
    </SocialCardFrame>,
    { ...size, fonts },
  )
}

import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { ImageResponse } from 'next/og'

import { getLandingPage, getSiteSettings } from '@/lib/content'
import { contentImageHost } from '@/lib/content/image-host'
import { croppedSize, isLocalAsset, lakeImageUrl, type ContentImage } from '@/lib/content/image-url'

export const alt = 'Vigia: detecção de fadiga e distração para frotas'
export const size = { width: 1200, height: 630 }
export const contentType = 'image/png'
export const revalidate = 3600

// Satori reads neither WOFF2 nor variable fonts: scripts/subset-font.py cuts these static WOFF
// files from the same Inter as the page's, with the same characters.
function font(weight: 700 | 800) {
  return readFile(path.join(process.cwd(), `app/fonts/inter-latin-${weight}.woff`))
}

const MIME_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png' }

/**
 * A CMS image for the renderer (Satori), at `width` x `height`: a data URL of the bundled file
 * (its box is the file's own shape), or a Sanity CDN URL cut to the box around the hotspot.
 */
async function imageSource(
  image: ContentImage | null | undefined,
  box: { width: number; height: number; format: 'jpg' | 'png' },
): Promise<string | null> {
  if (!image?.asset?.url) return null
  if (isLocalAsset(image)) {
    const file = path.join(process.cwd(), 'public', image.asset.url)
    const type = MIME_TYPES[image.asset.extension ?? '']
    if (!type) return null
    return `data:${type};base64,${(await readFile(file)).toString('base64')}`
  }
  const url = lakeImageUrl(image, contentImageHost, box)
  if (!url) return null
  // Fetched here rather than by the renderer, which refuses private addresses (the test double)
  // and would fail the whole card on a slow CDN; a missing image only leaves it out.
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    const type = response.headers.get('content-type') ?? 'image/png'
    return `data:${type};base64,${Buffer.from(await response.arrayBuffer()).toString('base64')}`
  } catch (error) {
    console.error(`Social image: could not load ${url}: ${String(error)}`)
    return null
  }
}

/** The largest box of the image's own shape inside `max` (so nothing is cut off). */
function fitInside(image: ContentImage, max: { width: number; height: number }) {
  const size = croppedSize(image) ?? max
  const scale = Math.min(max.width / size.width, max.height / size.height)
  return { width: Math.round(size.width * scale), height: Math.round(size.height * scale) }
}

export default async function OpenGraphImage() {
  const [settings, page, bold, extraBold] = await Promise.all([
    getSiteSettings(),
    getLandingPage(),
    font(700),
    font(800),
  ])
  const fonts = [
    { name: 'Inter', data: bold, weight: 700 as const, style: 'normal' as const },
    { name: 'Inter', data: extraBold, weight: 800 as const, style: 'normal' as const },
  ]

  // An editor's sharing image replaces the generated card entirely.
  const shareImage = await imageSource(settings?.seo?.shareImage, { ...size, format: 'jpg' })
  if (shareImage) {
    return new ImageResponse(
      <img src={shareImage} alt="" width={size.width} height={size.height} />,
      { ...size, fonts },
    )
  }

  const visual = page?.hero?.visual
  const visualBox = visual ? fitInside(visual, { width: 420, height: 486 }) : null
  const visualSource = visualBox ? await imageSource(visual, { ...visualBox, format: 'png' }) : null

  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        alignItems: 'center',
        gap: 48,
        padding: 72,
        background: 'linear-gradient(135deg, #07142b 0%, #13305c 100%)',
        color: 'white',
        fontFamily: 'Inter',
      }}
    >
      <div
        style={{
          flex: 1,
          height: '100%',
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'space-between',
        }}
      >
        <div
          style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize: 40, fontWeight: 700 }}
        >
          <div
            style={{
              width: 72,
              height: 72,
              borderRadius: 16,
              background: '#fbbf24',
              display: 'flex',
            }}
          />
          <div style={{ display: 'flex', flexDirection: 'column' }}>
            <span>{settings?.brandName ?? 'Vigia'}</span>
            <span style={{ fontSize: 24, color: '#cbd5e1' }}>{settings?.tagline ?? ''}</span>
          </div>
        </div>
        <div style={{ fontSize: visualSource ? 56 : 68, fontWeight: 800, lineHeight: 1.1 }}>
          {page?.hero?.headline ?? settings?.seo?.title ?? ''}
        </div>
        <div style={{ fontSize: visualSource ? 24 : 28, color: '#fbbf24', fontWeight: 700 }}>
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
    </div>,
    { ...size, fonts },
  )
}

import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { notFound } from 'next/navigation'
import { ImageResponse } from 'next/og'
import { stegaClean } from 'next-sanity'

import { coverPlacement } from '@/lib/articles/social-image'
import { getArticle, getSiteSettings } from '@/lib/content'
import { contentImageHost } from '@/lib/content/image-host'
import { croppedSize, isLocalAsset, lakeImageUrl, type ContentImage } from '@/lib/content/image-url'

// An article's social card, never the site's: its sharing image or cover cut to 1200 × 630
// around the editor's hotspot, or, without either, a card with the article's title.
export const alt = 'Artigo da Vigia'
export const size = { width: 1200, height: 630 }
export const contentType = 'image/png'
export const revalidate = 3600

const MIME_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png' }

function font(weight: 700 | 800) {
  return readFile(path.join(process.cwd(), `app/fonts/inter-latin-${weight}.woff`))
}

/** The picture filling the card, or null when there is none or it cannot be read. */
async function picture(image: ContentImage | null | undefined) {
  if (!image?.asset?.url) return null
  if (isLocalAsset(image)) {
    const type = MIME_TYPES[image.asset.extension ?? '']
    const source = croppedSize(image)
    if (!type || !source) return null
    const bytes = await readFile(path.join(process.cwd(), 'public', image.asset.url))
    const placement = coverPlacement(source, size, image.hotspot)
    return { src: `data:${type};base64,${bytes.toString('base64')}`, placement }
  }
  // The image CDN cuts it around the hotspot; fetched here so a slow CDN or a private test
  // host only costs the picture, never the card.
  const url = lakeImageUrl(image, contentImageHost, { ...size, format: 'jpg' })
  if (!url) return null
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    const type = response.headers.get('content-type') ?? 'image/jpeg'
    const data = Buffer.from(await response.arrayBuffer()).toString('base64')
    return { src: `data:${type};base64,${data}`, placement: { ...size, left: 0, top: 0 } }
  } catch (error) {
    console.error(`Article social image: could not load ${url}: ${String(error)}`)
    return null
  }
}

type Props = { params: Promise<{ slug: string }> }

export default async function ArticleSocialImage({ params }: Props) {
  const { slug } = await params
  const [article, settings, bold, extraBold] = await Promise.all([
    getArticle(slug),
    getSiteSettings(),
    font(700),
    font(800),
  ])
  if (!article?.title) notFound()
  const fonts = [
    { name: 'Inter', data: bold, weight: 700 as const, style: 'normal' as const },
    { name: 'Inter', data: extraBold, weight: 800 as const, style: 'normal' as const },
  ]

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
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: 72,
        background: 'linear-gradient(135deg, #07142b 0%, #13305c 100%)',
        color: 'white',
        fontFamily: 'Inter',
      }}
    >
      <div
        style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize: 36, fontWeight: 700 }}
      >
        <div
          style={{
            width: 56,
            height: 56,
            borderRadius: 14,
            background: '#fbbf24',
            display: 'flex',
          }}
        />
        <span>{stegaClean(settings?.brandName ?? 'Vigia')}</span>
        <span style={{ color: '#cbd5e1', fontSize: 28 }}>· Conteúdos</span>
      </div>
      <div style={{ fontSize: title.length > 70 ? 56 : 66, fontWeight: 800, lineHeight: 1.12 }}>
        {title}
      </div>
      <div style={{ fontSize: 28, color: '#fbbf24', fontWeight: 700 }}>
        {category ? stegaClean(category) : ' '}
      </div>
    </div>,
    { ...size, fonts },
  )
}

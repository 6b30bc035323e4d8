import 'server-only'

import { readFile, realpath } from 'node:fs/promises'
import path from 'node:path'

import { contentImageHost } from '@/lib/content/image-host'
import { croppedSize, isLocalAsset, lakeImageUrl, type ContentImage } from '@/lib/content/image-url'

// What the social cards (app/opengraph-image.tsx, app/conteudos/[slug]/opengraph-image.tsx)
// share: their size, their fonts, and CMS images read as data URLs for the renderer (Satori).

export const SOCIAL_IMAGE_SIZE = { width: 1200, height: 630 }

const MIME_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png' }

/**
 * Satori reads neither WOFF2 nor variable fonts: scripts/subset-font.py cuts these static WOFF
 * files from the same Inter as the page's, with the same characters.
 */
export async function socialImageFonts() {
  const font = (weight: 700 | 800) =>
    readFile(path.join(process.cwd(), `app/fonts/inter-latin-${weight}.woff`))
  const [bold, extraBold] = await Promise.all([font(700), font(800)])
  return [
    { name: 'Inter', data: bold, weight: 700 as const, style: 'normal' as const },
    { name: 'Inter', data: extraBold, weight: 800 as const, style: 'normal' as const },
  ]
}

/**
 * The file under public/ a bundled asset's URL names, or null when the URL (a CMS value, which
 * anyone with write access sets) would lead outside public/: "/../.env", an encoded or absolute
 * form, or a link inside public/ that points elsewhere. Resolved, then checked to be contained,
 * before anything is read.
 */
export async function publicAssetFile(url: string): Promise<string | null> {
  const root = path.join(process.cwd(), 'public')
  if (url.includes('\0')) return null
  const file = path.resolve(root, `.${path.posix.sep}${url.replace(/^\/+/, '')}`)
  if (!file.startsWith(root + path.sep)) return null
  try {
    // turbopackIgnore: a path from content makes Turbopack trace the whole project into the
    // standalone output; public/ is copied there by scripts/copy-standalone-assets.mjs.
    const [realRoot, realFile] = await Promise.all([
      realpath(/* turbopackIgnore: true */ root),
      realpath(/* turbopackIgnore: true */ file),
    ])
    return realFile.startsWith(realRoot + path.sep) ? realFile : null
  } catch {
    return null
  }
}

/**
 * A CMS image for the renderer: a data URL of the bundled file as it is (its box is the file's
 * own shape), or of the Sanity CDN's cut of it to `box` around the hotspot. Null when there is
 * no image or it cannot be read.
 */
export async function imageDataUrl(
  image: ContentImage | null | undefined,
  box: { width: number; height: number; format: 'jpg' | 'png' },
): Promise<string | null> {
  if (!image?.asset?.url) return null
  if (isLocalAsset(image)) {
    const type = MIME_TYPES[image.asset.extension ?? '']
    if (!type) return null
    const file = await publicAssetFile(image.asset.url)
    if (!file) {
      console.error(
        `Social image: ${JSON.stringify(image.asset.url.slice(0, 120))} is not a file under public/; left out.`,
      )
      return null
    }
    const bytes = await readFile(/* turbopackIgnore: true */ file)
    return `data:${type};base64,${bytes.toString('base64')}`
  }
  const url = lakeImageUrl(image, contentImageHost, box)
  if (!url) return null
  // Fetched here rather than by the renderer, which refuses private addresses (the test double)
  // and would fail the whole card on a slow CDN; a missing image only leaves it out.
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    const type =
      response.headers.get('content-type') ?? (box.format === 'png' ? 'image/png' : 'image/jpeg')
    return `data:${type};base64,${Buffer.from(await response.arrayBuffer()).toString('base64')}`
  } catch (error) {
    console.error(`Social image: could not load ${url}: ${String(error)}`)
    return null
  }
}

/** The largest box of the image's own shape inside `max` (so nothing is cut off). */
export function fitInside(image: ContentImage, max: Box): Box {
  const size = croppedSize(image) ?? max
  const scale = Math.min(max.width / size.width, max.height / size.height)
  return { width: Math.round(size.width * scale), height: Math.round(size.height * scale) }
}

// Where a picture sits inside a social card when it is cut around the editor's hotspot: scaled
// to cover the whole card, then shifted so the hotspot is as near the middle as the edges allow.
// The same cut the Sanity image CDN makes for `fit=crop` with a hotspot, for bundled files that
// no CDN resizes.

export type Box = { width: number; height: number }
export type Placement = { width: number; height: number; left: number; top: number }

export function coverPlacement(
  source: Box,
  card: Box,
  hotspot: { x?: number | null; y?: number | null } | null | undefined,
): Placement {
  const scale = Math.max(card.width / source.width, card.height / source.height)
  const width = Math.round(source.width * scale)
  const height = Math.round(source.height * scale)
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max)
  const x = hotspot?.x ?? 0.5
  const y = hotspot?.y ?? 0.5
  return {
    width,
    height,
    // `+ 0` turns -0 into 0.
    left: -Math.round(clamp(x * width - card.width / 2, width - card.width)) + 0,
    top: -Math.round(clamp(y * height - card.height / 2, height - card.height)) + 0,
  }
}

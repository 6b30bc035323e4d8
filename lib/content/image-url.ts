import { createImageUrlBuilder } from '@sanity/image-url'

import type { SanityImageCrop, SanityImageHotspot } from '@/sanity/types'

/** An image field as the page queries project it (`imageProjection` in sanity/lib/fragments.ts). */
export type ContentImage = {
  alt: string | null
  crop: SanityImageCrop | null
  hotspot: SanityImageHotspot | null
  asset: {
    _id: string
    url: string | null
    extension: string | null
    metadata: {
      lqip: string | null
      hasAlpha: boolean | null
      dimensions: { width: number | null; height: number | null } | null
    } | null
  } | null
}

/** Where Content Lake images are served from: Sanity's image CDN, or a stand-in (tests). */
export type ImageHost = { projectId: string; dataset: string; baseUrl: string }

export const SANITY_IMAGE_CDN = 'https://cdn.sanity.io'

/**
 * Candidate widths for `srcset`: the layouts' real widths at 1x and 2x (the hero visual is about
 * 343 px wide on a phone and 480 px on a desktop, section visuals up to 768 px), so a browser
 * always finds a close match without us listing every pixel count.
 */
export const IMAGE_WIDTHS = [320, 480, 640, 768, 960, 1200, 1536, 2048] as const

/** True when the asset is a file the site serves itself (the bundled dataset's images). */
export function isLocalAsset(image: ContentImage | null | undefined): boolean {
  return Boolean(image?.asset?.url?.startsWith('/'))
}

/** The asset's size after the editor's crop, in source pixels; null without dimensions. */
export function croppedSize(image: ContentImage | null | undefined) {
  const dimensions = image?.asset?.metadata?.dimensions
  if (!dimensions?.width || !dimensions.height) return null
  const crop = image?.crop
  const keepX = 1 - (crop?.left ?? 0) - (crop?.right ?? 0)
  const keepY = 1 - (crop?.top ?? 0) - (crop?.bottom ?? 0)
  return {
    width: Math.max(1, Math.round(dimensions.width * keepX)),
    height: Math.max(1, Math.round(dimensions.height * keepY)),
  }
}

export type ImageProps = {
  src: string
  srcSet: string
  sizes: string
  width: number
  height: number
  /** The asset's LQIP (a tiny base64 image), only for opaque images: it is painted behind. */
  blurDataURL?: string
}

/**
 * `<img>` attributes for a Content Lake image, URLs built by @sanity/image-url on the image CDN:
 * the editor's crop is applied (`rect`), and when the layout imposes `aspectRatio` the frame is
 * cut around the editor's hotspot (`fit=crop`). `auto=format` lets the CDN send AVIF or WebP to
 * browsers that take them. width/height are the displayed image's own, so the browser reserves
 * the right box before a byte arrives.
 */
export function lakeImageProps(
  image: ContentImage | null | undefined,
  host: ImageHost,
  {
    sizes,
    aspectRatio,
    widths = IMAGE_WIDTHS,
  }: {
    sizes: string
    aspectRatio?: number
    widths?: readonly number[]
  },
): ImageProps | null {
  const size = croppedSize(image)
  const assetId = image?.asset?._id
  if (!size || !assetId) return null

  let { width, height } = size
  if (aspectRatio) {
    // The largest frame of that ratio that fits inside the cropped image.
    width = Math.min(width, Math.round(height * aspectRatio))
    height = Math.round(width / aspectRatio)
  }

  const base = createImageUrlBuilder(host)
    .image({
      asset: { _ref: assetId },
      crop: image.crop ?? undefined,
      hotspot: image.hotspot ?? undefined,
    })
    .auto('format')
  const urlAt = (w: number) =>
    aspectRatio
      ? base
          .width(w)
          .height(Math.round(w / aspectRatio))
          .fit('crop')
          .url()
      : base.width(w).url()

  // Never ask for more pixels than the source has: the CDN would only upscale.
  const candidates = [...new Set([...widths.filter((w) => w < width), width])]
  const lqip = image.asset?.metadata?.lqip
  return {
    src: urlAt(Math.min(width, 1200)),
    srcSet: candidates.map((w) => `${urlAt(w)} ${w}w`).join(', '),
    sizes,
    width,
    height,
    ...(lqip && image.asset?.metadata?.hasAlpha === false ? { blurDataURL: lqip } : {}),
  }
}

/**
 * One fixed-size URL for a Content Lake image, cut to `width` x `height` around the hotspot, as
 * JPEG or PNG (for the generated social image, whose renderer reads neither WebP nor AVIF).
 */
export function lakeImageUrl(
  image: ContentImage | null | undefined,
  host: ImageHost,
  { width, height, format }: { width: number; height: number; format: 'jpg' | 'png' },
): string | null {
  const assetId = image?.asset?._id
  if (!assetId) return null
  return createImageUrlBuilder(host)
    .image({
      asset: { _ref: assetId },
      crop: image.crop ?? undefined,
      hotspot: image.hotspot ?? undefined,
    })
    .width(width)
    .height(height)
    .fit('crop')
    .format(format)
    .url()
}

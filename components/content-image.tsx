import { getImageProps } from 'next/image'
import { preload } from 'react-dom'

import { contentImageHost } from '@/lib/content/image-host'
import {
  croppedSize,
  isLocalAsset,
  lakeImageProps,
  type ContentImage as ContentImageValue,
} from '@/lib/content/image-url'

type Props = {
  image: ContentImageValue | null | undefined
  /** The `sizes` attribute: how wide the image is drawn at each breakpoint. */
  sizes: string
  /** Force this width:height ratio, cut around the editor's hotspot (logos, social cards). */
  aspectRatio?: number
  /**
   * Preload the image for viewports matching this media query (the ones where it is above the
   * fold and may be the LCP element). Elsewhere it stays lazy, so it never competes with the
   * headline for the first bytes on a phone.
   */
  preloadMedia?: string
  /**
   * The page's largest image above the fold on every screen (an article's cover): fetched at
   * once with high priority and preloaded, never lazy.
   */
  priority?: boolean
  className?: string
}

/**
 * Every CMS image on the site goes through here, as a plain <img> rendered on the server (no
 * client JavaScript):
 * - Content Lake images get @sanity/image-url URLs on Sanity's image CDN (crop, hotspot, srcset,
 *   auto=format) and their LQIP as a blur placeholder; see docs/content.md, "Images".
 * - Bundled images are files under public/, served through next/image's optimiser
 *   (getImageProps: /_next/image srcset). SVGs are served as they are: next/image refuses to
 *   optimise SVG without `dangerouslyAllowSVG`, which we leave off, and a vector needs no resizing.
 * Width and height always come from the asset, so the box is reserved before the image loads.
 */
export function ContentImage({
  image,
  sizes,
  aspectRatio,
  preloadMedia: media,
  priority = false,
  className,
}: Props) {
  // The schema requires alt text; one missing from older content still renders, as decorative.
  const alt = image?.alt ?? ''
  const loading = priority ? ('eager' as const) : ('lazy' as const)
  const fetchPriority = priority ? ('high' as const) : undefined
  const preloadMedia = media ?? (priority ? 'all' : undefined)

  if (isLocalAsset(image)) {
    const size = croppedSize(image)
    if (!size || !image?.asset?.url) return null
    const { props } = getImageProps({
      src: image.asset.url,
      width: size.width,
      height: size.height,
      alt,
      sizes,
      loading,
      className,
    })
    // A bundled file is served whole: a forced ratio is drawn by the browser, cut around the
    // editor's hotspot as the image CDN would.
    const framed = aspectRatio
      ? {
          aspectRatio: String(aspectRatio),
          objectFit: 'cover' as const,
          objectPosition: `${(image.hotspot?.x ?? 0.5) * 100}% ${(image.hotspot?.y ?? 0.5) * 100}%`,
        }
      : undefined
    if (preloadMedia) {
      preload(props.src, {
        as: 'image',
        fetchPriority: 'high',
        media: preloadMedia,
        ...(props.srcSet ? { imageSrcSet: props.srcSet, imageSizes: props.sizes } : {}),
      })
    }
    // getImageProps gives next/image's attributes without its client component (no JavaScript).
    return (
      // eslint-disable-next-line @next/next/no-img-element
      <img
        {...props}
        alt={alt}
        fetchPriority={fetchPriority}
        style={{ ...props.style, ...framed }}
      />
    )
  }

  const props = lakeImageProps(image, contentImageHost, { sizes, aspectRatio })
  if (!props) return null
  if (preloadMedia) {
    preload(props.src, {
      as: 'image',
      fetchPriority: 'high',
      media: preloadMedia,
      imageSrcSet: props.srcSet,
      imageSizes: props.sizes,
    })
  }
  return (
    // Sanity's CDN resizes these, not next/image (docs/content.md, "Images").
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={props.src}
      srcSet={props.srcSet}
      sizes={props.sizes}
      width={props.width}
      height={props.height}
      alt={alt}
      loading={loading}
      fetchPriority={fetchPriority}
      decoding={priority ? undefined : 'async'}
      className={className}
      style={
        props.blurDataURL
          ? { backgroundImage: `url(${props.blurDataURL})`, backgroundSize: 'cover' }
          : undefined
      }
    />
  )
}

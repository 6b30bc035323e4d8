import 'server-only'

import { contentImageHost } from './image-host'
import { isLocalAsset, lakeImageUrl, type ContentImage } from './image-url'

/** The site's generated social card (app/opengraph-image.tsx), itself the settings' image if set. */
export const SITE_SHARE_IMAGE = '/opengraph-image'

/**
 * A social-card URL (1200 × 630) for an editor's image, or undefined when it cannot be one: social
 * networks read neither SVG nor WebP, so a bundled SVG falls back to the site's card.
 */
export function shareImageUrl(image: ContentImage | null | undefined): string | undefined {
  if (!image?.asset?.url) return undefined
  if (isLocalAsset(image))
    return ['png', 'jpg', 'jpeg'].includes(image.asset.extension ?? '')
      ? image.asset.url
      : undefined
  return (
    lakeImageUrl(image, contentImageHost, { width: 1200, height: 630, format: 'jpg' }) ?? undefined
  )
}

import 'server-only'

import { unstable_cache } from 'next/cache'

import { boundaryTag } from '@/lib/cache/visibility-boundary.mjs'

import { REVALIDATE_SECONDS } from './tags'
import { nextBoundary, secondsUntil, type VisibilityWindow } from './visibility'

/**
 * Makes the page being rendered (ISR) expire at the next start or end among these windows, so it
 * goes live or away by itself. Call it with every window the page's answer depends on, before
 * notFound(). How (an unstable_cache() lifetime and a boundary tag): docs/campaigns.md, "How it
 * works (developers)".
 */
export async function expireAtNextBoundary(
  windows: Iterable<VisibilityWindow | null | undefined>,
  now = Date.now(),
): Promise<void> {
  const boundary = nextBoundary(windows, now)
  if (boundary === undefined) return
  const seconds = secondsUntil(boundary, now, REVALIDATE_SECONDS)
  await unstable_cache(async () => boundary, ['visibility-boundary', String(boundary)], {
    revalidate: seconds,
    tags: [boundaryTag(boundary)],
  })()
}

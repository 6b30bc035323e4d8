import 'server-only'

import { unstable_cache } from 'next/cache'

import { boundaryTag } from '@/lib/cache/visibility-boundary.mjs'

import { REVALIDATE_SECONDS } from './tags'
import { nextBoundary, secondsUntil, type VisibilityWindow } from './visibility'

/**
 * Makes the page being rendered (ISR) expire at the next start or end among these windows, so it
 * goes live or away by itself, on every instance, with no publish, deploy or webhook: nobody sends
 * one at that moment. Call it with every window the page's answer depends on, before notFound().
 *
 * How: an unstable_cache() entry with `revalidate` set to the seconds left lowers the page's own
 * revalidate to that (Next keeps the lowest lifetime of what a page read; a page config's
 * `revalidate` has to be a literal), and its tag names the boundary so the cache handler treats
 * the page as expired, not merely stale, once the boundary has passed
 * (lib/cache/visibility-boundary.mjs). https://nextjs.org/docs/app/api-reference/functions/unstable_cache
 * (Next 16's `cacheLife()` would say this directly, but only inside "use cache", which needs
 * cacheComponents, a different caching model from this site's ISR.)
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

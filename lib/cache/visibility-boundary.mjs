// A cached page built from content with a visibility window (a campaign page, the announcement
// bar) is true only until the window's next start or end. The page then carries a cache tag naming
// that moment (lib/content/visibility-cache.ts adds it), and the cache handler treats the page as
// expired from that moment on: the next request waits for a fresh render instead of getting the
// stale page while it is rebuilt in the background (Next's default for a page past its
// `revalidate`), so a page never outlives its end for its first visitor after it, however long
// nobody asked for it. Plain JavaScript: Next loads the cache handler outside the app's bundle.

/**
 * Tag prefix; the rest is the boundary in milliseconds since the epoch. Not whole seconds: Next
 * already counts a page lowered to ceil(seconds left) as stale from the boundary on, and a tag
 * rounded up to the next second left up to a second in which a 404 was served stale and rebuilt
 * in the background, a render Next gives the not-found page's head (docs/campaigns.md).
 */
export const BOUNDARY_TAG_PREFIX = 'vigia:until:'

/** @param {number} ms the boundary, ms since the epoch */
export function boundaryTag(ms) {
  return `${BOUNDARY_TAG_PREFIX}${Math.ceil(ms)}`
}

/**
 * Whether a page carrying these cache tags (Next's comma-separated x-next-cache-tags header) has
 * passed one of its boundaries at `now`.
 * @param {unknown} tagsHeader
 * @param {number} now
 */
export function isPastBoundary(tagsHeader, now = Date.now()) {
  if (typeof tagsHeader !== 'string') return false
  for (const tag of tagsHeader.split(',')) {
    if (!tag.startsWith(BOUNDARY_TAG_PREFIX)) continue
    const at = Number(tag.slice(BOUNDARY_TAG_PREFIX.length))
    if (Number.isFinite(at) && at <= now) return true
  }
  return false
}

// The visit beacon (docs/analytics.md, "The beacon"), run in the browser by
// components/visit-beacon.tsx on every page. A few hundred bytes, no third party: on a real view
// (not a prerender; prefetches run no script) it POSTs the path and the visit's first touch to
// /api/analytics/view, once per path shown (client-side navigations included). The first touch is
// the sessionStorage entry lib/attribution.ts reads (same key, same shape); it holds UTM tags and
// a referrer, no identifier. No cookie, nothing in localStorage. The Studio, previews and review
// links are not counted.

import { firstTouchAttribution } from '@/lib/attribution'

import { BEACON_PATH } from './beacon-constants'

export { BEACON_PATH }

/** Paths that are not the public site. */
const NOT_COUNTED = /^\/(studio|preview|revisao)(\/|$)/

let lastPath: string | undefined

/** Sends the view of `path` once (again only after another path was shown). Browser-only. */
export function sendView(path: string): void {
  if (NOT_COUNTED.test(path) || path === lastPath) return
  // A prerendered page is not a view until the visitor actually opens it.
  if ((document as Document & { prerendering?: boolean }).prerendering) {
    document.addEventListener('prerenderingchange', () => sendView(path), { once: true })
    return
  }
  lastPath = path
  const touch = firstTouchAttribution()
  let referrer: string | undefined
  try {
    referrer = touch.referrer ? new URL(touch.referrer).host : undefined
  } catch {
    // An unparsable referrer tells us nothing.
  }
  fetch(BEACON_PATH, {
    method: 'POST',
    keepalive: true,
    credentials: 'omit',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      path,
      referrer,
      utm_source: touch.utm_source,
      utm_medium: touch.utm_medium,
      utm_campaign: touch.utm_campaign,
    }),
  }).catch(() => {
    // A lost view is only a count; the visitor never hears of it.
  })
}

/** Forgets the last path (tests). */
export function resetBeacon(): void {
  lastPath = undefined
}

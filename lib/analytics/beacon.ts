// The visit beacon (docs/analytics.md, "The beacon"), run on every page by
// components/visit-beacon.tsx: a few hundred bytes, no third party, no cookie or localStorage. It
// POSTs to /api/analytics/view a view per path shown (`entry` on the visit's first), a contact
// link's click, and a view's end (visible seconds, deeper scroll; the hard load's first carries its
// web vitals), each with the visit's first touch and the variant seen.

import { firstTouchAttribution, saveFirstTouch, servedVariant } from '@/lib/attribution'
import { PRIVATE_PATH } from '@/lib/private-sections'

import { BEACON_PATH } from './beacon-constants'

export { BEACON_PATH }

/** The contact links counted: WhatsApp (1), phone (2), e-mail (the rest). */
const CONTACT_LINK = /^(?:(https:\/\/(?:wa\.me|api\.whatsapp\.com)\/|whatsapp:)|(tel:)|mailto:)/i

let lastPath: string | undefined
// The view being read (module variables, which minify to a few letters): whether one is, since
// when it is visible (0: hidden), its visible ms not yet reported, its deepest scroll (%), the
// scroll already reported, and whether it has been reported before.
let reading = false
let since = 0
let visible = 0
let depth = 0
let sent = 0
let first = true
let listening = false
// web-vitals' latest figures of the page load (lcp, inp, cls; none until measured), sent with the
// first reading report and then forgotten: web-vitals measures the load, not client navigations.
let vitals: Record<string, number> | undefined = {}
// The experiment's variant of the view (read when it is shown: a reading report is sent after
// the next page replaced this one's meta).
let variant: string | undefined

function post(event: Record<string, unknown>): void {
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
      // The first touch's tags, entry page and variant (and its `entered` mark, which the server
      // ignores: spelled out, the fields cost the beacon bytes it does not have).
      ...touch,
      path: lastPath,
      referrer,
      variant,
      ...event,
    }),
  }).catch(() => {
    // A lost count is only a count; the visitor never hears of it.
  })
}

function scrolled(): void {
  depth = Math.max(
    depth,
    Math.min(100, ((scrollY + innerHeight) / document.documentElement.scrollHeight) * 100),
  )
}

/** Reports the reading of the current view since its last report (page hidden, left, replaced). */
function endReading(): void {
  if (!reading) return
  scrolled()
  if (since) visible += Date.now() - since
  since = 0
  const seconds = Math.round(visible / 1000)
  const scroll = Math.max(0, Math.round(depth - sent))
  if (seconds || scroll || first) post({ event: 'read', seconds, scroll, first, ...vitals })
  vitals = undefined
  visible = 0
  sent += scroll
  first = false
}

function listen(): void {
  if (listening) return
  listening = true
  // Its own chunk, loaded once the view is sent (after idle), so never first-load JS; its buffered
  // observers still see the load's paints and shifts. Its listeners are on window in the capture
  // phase: on hide they report before ours sends the reading.
  import('web-vitals')
    .then((measure) => {
      const keep = ({ name, value }: { name: string; value: number }) => {
        if (vitals) vitals[name.toLowerCase()] = value
      }
      for (const on of [measure.onLCP, measure.onINP, measure.onCLS])
        on(keep, { reportAllChanges: true })
    })
    .catch(() => {
      // No figures: the reading is still sent.
    })
  addEventListener('scroll', scrolled, { passive: true })
  // Fired on leaving the page too (before pagehide), in every current browser.
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) endReading()
    else since = Date.now()
  })
  // Capture: counted even when the link's own handler stops the event.
  document.addEventListener(
    'click',
    (event) => {
      const found = CONTACT_LINK.exec(
        (event.target as Element).closest?.('a[href]')?.getAttribute('href') ?? '',
      )
      if (found)
        post({ event: 'contact', channel: found[1] ? 'whatsapp' : found[2] ? 'phone' : 'email' })
    },
    true,
  )
}

/** Sends the view of `path` once (again only after another path was shown). Browser-only. */
export function sendView(path: string): void {
  if (PRIVATE_PATH.test(path) || path === lastPath) return
  // A prerendered page is not a view until the visitor actually opens it.
  if ((document as Document & { prerendering?: boolean }).prerendering) {
    document.addEventListener('prerenderingchange', () => sendView(path), { once: true })
    return
  }
  listen()
  endReading()
  lastPath = path
  reading = true
  since = document.hidden ? 0 : Date.now()
  visible = depth = sent = 0
  first = true
  scrolled()
  const touch = firstTouchAttribution()
  // The experiment's variant seen: this page's, else the entry page's (docs/experiments.md).
  variant = servedVariant() ?? touch.variant
  // The visit's first view is its entry (marked in the first touch, no identifier); its variant
  // stays with the visit, credited to its later pages and its lead as its campaign is.
  const entry = !touch.entered
  if (entry) saveFirstTouch({ ...touch, entered: 1, variant })
  post({ entry })
}

/** Forgets the last path and the view being read (tests). */
export function resetBeacon(): void {
  lastPath = variant = undefined
  reading = false
  vitals = {}
}

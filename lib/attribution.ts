import { FIRST_TOUCH_KEY } from '@/lib/analytics/beacon-constants'
import { ATTRIBUTION_KEYS, type Attribution } from '@/lib/attribution-fields'
import { REFERRER_MAX_LENGTH, TAG_MAX_LENGTH, UTM_KEYS } from '@/lib/campaign-tags'

// The visit beacon (lib/analytics/beacon.ts) writes and reads this same entry.
const STORAGE_KEY = FIRST_TOUCH_KEY

export { ATTRIBUTION_KEYS }

/** The first touch as stored: the UTM tags, the external referrer and the entry page's path. */
export type FirstTouch = Attribution & {
  /** Set by the beacon once it has counted the visit's entry (lib/analytics/beacon.ts). */
  entered?: 1
}

/**
 * The first touch of this browser session: the UTM tags, external referrer and entry page of the
 * visit that brought the visitor, kept in sessionStorage so that later in-page navigation does
 * not overwrite it. No identifier. Browser-only.
 */
export function firstTouchAttribution(): FirstTouch {
  try {
    const stored = window.sessionStorage.getItem(STORAGE_KEY)
    if (stored) return JSON.parse(stored) as FirstTouch
  } catch {
    // Storage blocked (private mode, policies): fall back to this page view alone.
  }
  const params = new URLSearchParams(window.location.search)
  // The entry page's variant joins it when the beacon counts the entry (lib/analytics/beacon.ts).
  const attribution: FirstTouch = { landing: window.location.pathname }
  for (const key of UTM_KEYS) {
    const value = params.get(key)?.trim()
    // The server makes it well-formed text again if the cut halves an emoji.
    if (value) attribution[key] = value.slice(0, TAG_MAX_LENGTH)
  }
  if (document.referrer) {
    try {
      const referrer = new URL(document.referrer)
      if (referrer.origin !== window.location.origin)
        attribution.referrer = referrer.href.slice(0, REFERRER_MAX_LENGTH)
    } catch {
      // An unparsable referrer tells us nothing.
    }
  }
  saveFirstTouch(attribution)
  return attribution
}

/** Writes the first touch back (the beacon marks the entry counted). */
export function saveFirstTouch(touch: FirstTouch): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(touch))
  } catch {
    // See above.
  }
}

/**
 * The experiment's variant this page was served as (its `vigia:variant` meta, rendered with the
 * cached page: docs/experiments.md), or undefined. Browser-only.
 */
export function servedVariant(): string | undefined {
  // The literal, not VARIANT_META: the beacon's bytes are counted (tests/unit/analytics.test.ts).
  return document.querySelector<HTMLMetaElement>('meta[name="vigia:variant"]')?.content || undefined
}

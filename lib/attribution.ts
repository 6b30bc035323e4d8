import type { Attribution } from '@/lib/leads/compose'

import { FIRST_TOUCH_KEY } from '@/lib/analytics/beacon-constants'

// The visit beacon (lib/analytics/beacon.ts) writes and reads this same entry.
const STORAGE_KEY = FIRST_TOUCH_KEY

/**
 * The first touch of this browser session: the UTM tags and external referrer of the visit that
 * brought the visitor, kept in sessionStorage so that later in-page navigation does not overwrite
 * it. Browser-only.
 */
export function firstTouchAttribution(): Attribution {
  try {
    const stored = window.sessionStorage.getItem(STORAGE_KEY)
    if (stored) return JSON.parse(stored) as Attribution
  } catch {
    // Storage blocked (private mode, policies): fall back to this page view alone.
  }
  const params = new URLSearchParams(window.location.search)
  const attribution: Attribution = {}
  for (const key of ['utm_source', 'utm_medium', 'utm_campaign'] as const) {
    const value = params.get(key)?.trim()
    if (value) attribution[key] = value.slice(0, 100)
  }
  if (document.referrer) {
    try {
      const referrer = new URL(document.referrer)
      if (referrer.origin !== window.location.origin)
        attribution.referrer = referrer.href.slice(0, 200)
    } catch {
      // An unparsable referrer tells us nothing.
    }
  }
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(attribution))
  } catch {
    // See above.
  }
  return attribution
}

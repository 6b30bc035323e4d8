// The campaign tags a visit arrives with, and their bounds: kept by the browser (lib/attribution.ts),
// counted by the analytics (lib/analytics/collect.ts), named in the Studio's campaign links
// (lib/analytics/campaign-link.ts) and stored with a lead (lib/leads/compose.ts). No imports: the
// browser bundle and the Studio load it. The SQL checks that repeat the bounds are held to these
// by tests/unit/concepts.test.ts.

/** The UTM tags, in the order a lead's "Origem" part names them. */
export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign'] as const

export type UtmKey = (typeof UTM_KEYS)[number]

/** A tag value (and a referrer's host) at most, in characters. */
export const TAG_MAX_LENGTH = 100

/** An external referrer's address at most, as the browser keeps it and a lead's text names it. */
export const REFERRER_MAX_LENGTH = 200

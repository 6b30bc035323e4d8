import { TAG_MAX_LENGTH, UTM_KEYS } from '@/lib/campaign-tags'
import { INVISIBLE } from '@/lib/text/invisible'

// The first touch's fields and how each is cleaned: one module for the browser (lib/attribution.ts
// reads them from the landing URL), the lead's attribution columns (lib/leads/compose.ts) and the
// visit counts (lib/analytics/collect.ts), so that a lead's campaign is the one its visit counted.
// No browser code and no server code: both sides import it (an ESLint rule holds the layers).

/** A demo request's attribution: the session's first touch and the page the form was sent from. */
export type Attribution = {
  utm_source?: string
  utm_medium?: string
  utm_campaign?: string
  referrer?: string
  /** The visit's entry page (the first touch's path): the page that gets the lead as landing. */
  landing?: string
  /** The page the form was sent from (its path, e.g. /calculadora or /conteudos/x). */
  page?: string
  /**
   * The experiment's variant the visitor saw, `<experiment>/<variant>` (docs/experiments.md): the
   * form's page's, else the entry page's. Counted only while that experiment runs.
   */
  variant?: string
}

/** The first touch's parts the demo form sends and the "Origem" part of a lead names. */
export const ATTRIBUTION_KEYS = [...UTM_KEYS, 'referrer'] as const

/** A campaign, source or medium value is counted (and stored with a lead) up to this length. */
export const VALUE_MAX_LENGTH = TAG_MAX_LENGTH

/**
 * Well-formed text: a lone UTF-16 surrogate (an emoji cut in half, or "\ud800" in JSON) goes.
 * PostgreSQL refuses one in jsonb or text, so it must never reach a batch.
 */
export function wellFormed(value: string): string {
  return value.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '',
  )
}

/** The first `max` characters (code points: never half an emoji). */
export function cutText(value: string, max: number): string {
  if (value.length <= max) return value
  return Array.from(value).slice(0, max).join('')
}

/** A campaign, source or medium value as it is counted: no control or invisible characters, ≤100. */
export function cleanValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  // Well-formed first, then cut by code points: no cut can leave half a character.
  const clean = cutText(
    wellFormed(value)
      .replace(/\p{Cc}/gu, ' ')
      .replace(INVISIBLE, '')
      .replace(/[«»]/g, '"')
      .replace(/ {2,}/g, ' ')
      .trim(),
    VALUE_MAX_LENGTH,
  ).trim()
  return clean || undefined
}

/**
 * A literal, so that the beacon, which bundles this module, drops it (its bytes are counted); its
 * bound is TAG_MAX_LENGTH (tests/unit/concepts.test.ts).
 */
export const HOST_PATTERN = /^[a-z0-9.-]{1,100}$/

/** A referrer host as counted: lower case, a host name's characters only. */
export function cleanHost(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const host = value.trim().toLowerCase()
  return HOST_PATTERN.test(host) && /[a-z0-9]/.test(host) ? host : undefined
}

/** The path as the site serves it: no query or fragment, no trailing slash (but '/'). */
export function cleanPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 300) return undefined
  const path = value.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/'
  // '//' would read as another host wherever the path is used as a link.
  return /^\/[A-Za-z0-9._~\-/%]*$/.test(path) && !path.includes('//') ? path : undefined
}

/** The meta element each served variant names itself in (docs/experiments.md). */
export const VARIANT_META = 'vigia:variant'

/** Two slugs joined by '/'; the lead column's policy repeats it (tests/unit/concepts.test.ts). */
export const VARIANT_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z0-9]+(?:-[a-z0-9]+)*$/
/** The longest variant counted or stored. */
export const VARIANT_MAX_LENGTH = 130

/**
 * A variant as counted and stored: `<experiment>/<variant>`, each part a slug (as
 * lib/experiments/ids.ts parseVariantId reads it), 130 characters at most; anything else is
 * no variant. Whether it runs is asked apart (lib/experiments/running.ts).
 */
export function cleanVariant(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const variant = value.trim()
  return variant.length <= VARIANT_MAX_LENGTH && VARIANT_PATTERN.test(variant) ? variant : undefined
}

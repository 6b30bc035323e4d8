// Visibility windows: a document with an optional start and end (campaign pages, articles and the
// announcement bar; docs/campaigns.md, "Adopting windows"). Pure
// functions of the window and the clock, shared by the site (what to serve, and until when a
// cached answer holds) and by the Studio (validation and the list's scheduled/live/ended label),
// so both always agree.
//
// Instants are stored as Sanity `datetime` values (ISO 8601 in UTC). The start is included and the
// end is not: at exactly the end the document is already gone.

import { siteDateTime } from '../site-time.mjs'

/** The time zone editors think in (lib/site-time.mjs); the Studio shows and edits the fields in it. */
export { SITE_TIME_ZONE } from '../site-time.mjs'

/** The fields a document with a window carries (null when unset, as GROQ returns them). */
export type VisibilityWindow = {
  visibleFrom?: string | null
  visibleUntil?: string | null
}

export type VisibilityState = 'scheduled' | 'live' | 'ended'

/** Milliseconds since the epoch, or undefined for an unset or unreadable value. */
export function instant(value: string | null | undefined): number | undefined {
  if (!value) return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}

/**
 * Where the window stands at `now`. A window the Studio would refuse (end not after start) is never
 * live: before its start it counts as scheduled, after it as ended.
 */
export function visibilityState(window: VisibilityWindow, now = Date.now()): VisibilityState {
  const start = instant(window.visibleFrom)
  const end = instant(window.visibleUntil)
  if (start !== undefined && now < start) return 'scheduled'
  if (end !== undefined && now >= end) return 'ended'
  if (start !== undefined && end !== undefined && end <= start) return 'ended'
  return 'live'
}

export function isVisible(window: VisibilityWindow, now = Date.now()): boolean {
  return visibilityState(window, now) === 'live'
}

/**
 * The first start or end strictly after `now` among these windows (ms since the epoch), or
 * undefined when none is ahead: the moment a cached answer built from them stops being true.
 */
export function nextBoundary(
  windows: Iterable<VisibilityWindow | null | undefined>,
  now = Date.now(),
): number | undefined {
  let next: number | undefined
  for (const window of windows) {
    if (!window) continue
    for (const value of [window.visibleFrom, window.visibleUntil]) {
      const at = instant(value)
      if (at !== undefined && at > now && (next === undefined || at < next)) next = at
    }
  }
  return next
}

/**
 * Whole seconds from `now` until `boundary`, at least 1 and at most `cap`: how long a page built
 * now may be cached before it must be built again.
 */
export function secondsUntil(boundary: number, now: number, cap: number): number {
  return Math.min(cap, Math.max(1, Math.ceil((boundary - now) / 1000)))
}

/** Why the Studio must refuse this window, in Portuguese, or undefined when it is fine. */
export function windowProblem(window: VisibilityWindow): string | undefined {
  const start = instant(window.visibleFrom)
  const end = instant(window.visibleUntil)
  if (start !== undefined && end !== undefined && end <= start)
    return 'O fim precisa ser depois do início: com o fim antes (ou igual) ao início, a página nunca entraria no ar.'
  return undefined
}

/** "02/12/2026, 09:00" in São Paulo time, whatever the reader's own time zone. */
export const formatSiteTime: (ms: number) => string = siteDateTime

/** The grammatical gender of the document's noun: a página (f), o artigo (m). */
export type NounGender = 'f' | 'm'

const STATE_LABELS: Record<NounGender, Record<VisibilityState, string>> = {
  f: { scheduled: 'Agendada', live: 'No ar', ended: 'Encerrada' },
  m: { scheduled: 'Agendado', live: 'No ar', ended: 'Encerrado' },
}

/**
 * The Studio list's label: "Agendada · entra no ar 02/12/2026, 09:00 (horário de Brasília)"
 * ("Agendado" for a masculine noun such as an article).
 */
export function describeVisibility(
  window: VisibilityWindow,
  now = Date.now(),
  gender: NounGender = 'f',
): string {
  const state = visibilityState(window, now)
  const start = instant(window.visibleFrom)
  const end = instant(window.visibleUntil)
  const label = STATE_LABELS[gender][state]
  if (state === 'scheduled' && start !== undefined)
    return `${label} · entra no ar ${formatSiteTime(start)} (horário de Brasília)`
  if (state === 'live' && end !== undefined)
    return `${label} · sai do ar ${formatSiteTime(end)} (horário de Brasília)`
  if (state === 'ended' && end !== undefined)
    return `${label} · saiu do ar ${formatSiteTime(end)} (horário de Brasília)`
  return label
}

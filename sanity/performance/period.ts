// The Desempenho tool's periods, comparisons and number formats, as pure functions. Days are
// calendar dates in America/Sao_Paulo (the endpoint counts days there too), written YYYY-MM-DD
// and added up as UTC dates so no clock change can make a day 23 or 25 hours long.

import { isReportDate, REPORT_MAX_DAYS, type ReportRow } from '../../lib/analytics/report-schema'
import { siteDay } from '../../lib/site-time.mjs'

/** The period buttons, in days, the last one ending today. */
export const PRESET_DAYS = [7, 30, 90] as const

/** The longest custom period: a year, leap day included (the endpoint allows REPORT_MAX_DAYS). */
export const MAX_PERIOD_DAYS = Math.min(366, REPORT_MAX_DAYS)

const DAY_MS = 86_400_000

export type Period = { from: string; to: string; days: number }

/** Today's date in São Paulo, whatever the browser's time zone. */
export function saoPauloToday(now: Date = new Date()): string {
  return siteDay(now)
}

/** True for a real calendar date written YYYY-MM-DD (no 2026-02-30). */
export const isIsoDate = isReportDate

function toTime(date: string): number {
  if (!isIsoDate(date)) throw new RangeError(`Not a YYYY-MM-DD date: ${date}`)
  return Date.parse(`${date}T00:00:00Z`)
}

export function addDays(date: string, days: number): string {
  return new Date(toTime(date) + days * DAY_MS).toISOString().slice(0, 10)
}

/** How many days from `from` to `to`, both included. */
export function daysInclusive(from: string, to: string): number {
  return Math.round((toTime(to) - toTime(from)) / DAY_MS) + 1
}

/** The last `days` days, today included. */
export function presetPeriod(days: number, today: string): Period {
  return { from: addDays(today, -(days - 1)), to: today, days }
}

/** A period typed by the editor, or why it cannot be used, in Portuguese. */
export function customPeriod(
  from: string,
  to: string,
  today: string,
): { period: Period } | { problem: string } {
  if (!isIsoDate(from) || !isIsoDate(to))
    return { problem: 'Preencha as duas datas, no formato dia/mês/ano.' }
  if (from > to) return { problem: 'A data inicial precisa ser igual ou anterior à data final.' }
  if (to > today) return { problem: 'A data final não pode estar no futuro.' }
  const days = daysInclusive(from, to)
  if (days > MAX_PERIOD_DAYS)
    return { problem: `Escolha um período de no máximo ${MAX_PERIOD_DAYS} dias.` }
  return { period: { from, to, days } }
}

/** The period of the same length that ends the day before `period` starts. */
export function previousPeriod(period: Period): Period {
  const to = addDays(period.from, -1)
  return { from: addDays(to, -(period.days - 1)), to, days: period.days }
}

/** Every day of the period, in order. */
export function periodDays(period: Period): string[] {
  return Array.from({ length: period.days }, (_, index) => addDays(period.from, index))
}

export type DayPoint = { date: string; visits: number; visitors: number; leads: number }

/**
 * One point per day of the period, from the endpoint's by=day rows: a day with no row had no
 * visit and no lead, and a row outside the period is not drawn.
 */
export function dailySeries(period: Period, rows: readonly ReportRow[]): DayPoint[] {
  const byDay = new Map(rows.map((row) => [row.key, row]))
  return periodDays(period).map((date) => {
    const row = byDay.get(date)
    return {
      date,
      visits: row?.visits ?? 0,
      visitors: row?.visitors ?? 0,
      leads: row?.leads ?? 0,
    }
  })
}

export type Totals = {
  visits: number
  visitors: number
  leads: number
  /** Materials' downloads: conversions beside the leads, never in `conversion`. */
  downloads: number
  conversion: number | null
}

/**
 * The period's totals from its by=day rows. Visitors are unique per day (the hash changes with
 * the daily salt), so the total is the sum of each day's visitors; conversion is leads ÷ that
 * sum, or null with no visitor (a rate of nothing is not 0%).
 */
export function totals(rows: readonly ReportRow[]): Totals {
  let visits = 0
  let visitors = 0
  let leads = 0
  let downloads = 0
  for (const row of rows) {
    visits += row.visits
    visitors += row.visitors
    leads += row.leads
    downloads += row.downloads
  }
  return { visits, visitors, leads, downloads, conversion: conversionRate(leads, visitors) }
}

export function conversionRate(leads: number, visitors: number): number | null {
  return visitors > 0 ? Math.min(1, leads / visitors) : null
}

export type Change =
  { kind: 'relative'; ratio: number } | { kind: 'points'; points: number } | { kind: 'none' }

/** A count against the previous period's: the relative change, or none when it had nothing. */
export function countChange(current: number, previous: number): Change {
  if (previous === 0) return current === 0 ? { kind: 'relative', ratio: 0 } : { kind: 'none' }
  return { kind: 'relative', ratio: (current - previous) / previous }
}

/** A rate against the previous period's, in percentage points (2,0% → 2,5% is +0,5 p.p.). */
export function rateChange(current: number | null, previous: number | null): Change {
  if (current === null || previous === null) return { kind: 'none' }
  return { kind: 'points', points: (current - previous) * 100 }
}

export type Comparison = {
  current: Totals
  previous: Totals
  changes: Record<'visits' | 'visitors' | 'leads' | 'downloads' | 'conversion', Change>
}

export function compare(current: Totals, previous: Totals): Comparison {
  return {
    current,
    previous,
    changes: {
      visits: countChange(current.visits, previous.visits),
      visitors: countChange(current.visitors, previous.visitors),
      leads: countChange(current.leads, previous.leads),
      downloads: countChange(current.downloads, previous.downloads),
      conversion: rateChange(current.conversion, previous.conversion),
    },
  }
}

const countFormat = new Intl.NumberFormat('pt-BR')
const rateFormat = new Intl.NumberFormat('pt-BR', {
  style: 'percent',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
})
const changeFormat = new Intl.NumberFormat('pt-BR', {
  style: 'percent',
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
})
const pointsFormat = new Intl.NumberFormat('pt-BR', {
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
})

/** 12345 → "12.345". */
export function formatCount(value: number): string {
  return countFormat.format(value)
}

/** 95 → "1 min 35 s", 8.4 → "8 s"; nothing measured → "—". */
export function formatSeconds(value: number | null): string {
  if (value === null) return '—'
  const seconds = Math.round(value)
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`
}

/** 80 → "80%"; nothing measured → "—". */
export function formatPercent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value)}%`
}

/** 0.025 → "2,5%"; no rate (no visitor) → "—". */
export function formatRate(value: number | null): string {
  return value === null ? '—' : rateFormat.format(value)
}

/** "+12,5%", "−3%", "+0,4 p.p.", or "—" when the previous period gives no base. */
export function formatChange(change: Change): string {
  if (change.kind === 'none') return '—'
  if (change.kind === 'points') return `${pointsFormat.format(change.points)} p.p.`
  return changeFormat.format(change.ratio)
}

/** Whether a change is up, down or flat, for its colour and its spoken description. */
export function changeDirection(change: Change): 'up' | 'down' | 'flat' | 'none' {
  if (change.kind === 'none') return 'none'
  const value = change.kind === 'points' ? change.points : change.ratio
  // Below what the format shows (0,05% or 0,05 p.p.) a change reads as none.
  const shown = change.kind === 'points' ? Math.abs(value) >= 0.05 : Math.abs(value) >= 0.0005
  if (!shown) return 'flat'
  return value > 0 ? 'up' : 'down'
}

/** "2026-11-26" → "26/11/2026". */
export function formatDate(date: string): string {
  const [year, month, day] = date.split('-')
  return `${day}/${month}/${year}`
}

/** "2026-11-26" → "26/11", for the chart's axis. */
export function formatShortDate(date: string): string {
  const [, month, day] = date.split('-')
  return `${day}/${month}`
}

/** "26/10/2026 a 24/11/2026 (30 dias)". */
export function describePeriod(period: Period): string {
  const length = period.days === 1 ? '1 dia' : `${period.days} dias`
  return `${formatDate(period.from)} a ${formatDate(period.to)} (${length})`
}

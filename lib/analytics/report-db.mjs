// The figures of one report, read from the aggregates as analytics_reader, for GET /api/analytics
// and `npm run stats` alike. Plain JavaScript (JSDoc types): the script needs no TypeScript loader.

/**
 * @typedef {import('../leads/db.mjs').Database} Database
 * @typedef {import('./report-schema').ReportGroup} ReportGroup
 * @typedef {{ from: string, to: string, by: ReportGroup, path?: string }} ReportRequest
 * @typedef {{ key: string, visits: number, visitors: number, leads: number, conversion: number,
 *   downloads: number, whatsapp: number, phone: number, email: number, engagedSeconds: number | null,
 *   scrollDepth: number | null, lcpP75?: number | null, inpP75?: number | null,
 *   clsP75?: number | null }} ReportRowData
 * @typedef {Map<string, Map<number, number>>} Histograms a page's samples per vital and bucket
 */

import {
  CONTACT_CHANNELS,
  conversionRate,
  OTHER_KEY,
  REPORT_MAX_ROWS,
  SITE_KEY,
} from './measures.mjs'
import { p75, VITAL_SPECS } from './vitals.mjs'

export { conversionRate, OTHER_KEY, SITE_KEY } from './measures.mjs'

/** Every day from `from` to `to`, YYYY-MM-DD. @param {string} from @param {string} to */
export function daysOf(from, to) {
  /** @type {string[]} */
  const days = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10))
  return days
}

/**
 * The conversions joined to the views, counted per day and stored keys by
 * analytics.conversion_counts (20270410000000_analytics_generic.sql): demo requests (`leads`),
 * materials' downloads (`downloads`).
 */
const CONVERSION_COUNTS = Object.freeze([
  { measure: 'leads', kind: 'lead' },
  { measure: 'downloads', kind: 'material' },
])

/**
 * The figures of one request (the `path` filter goes with by=page and by=day only).
 * @param {Database} db
 * @param {ReportRequest} query
 * @returns {Promise<{ from: string, to: string, by: ReportGroup, rows: ReportRowData[] }>}
 */
export async function queryReport(db, query) {
  /** @typedef {{ visits: number, visitors: number, leads: number, downloads: number, reads: number, readSeconds: number, readScroll: number } & Record<string, number>} Sums */
  /** @type {Map<string, Sums>} */
  const totals = new Map()
  /** @param {string} key */
  const row = (key) => {
    let entry = totals.get(key)
    if (!entry) {
      entry = /** @type {Sums} */ ({
        visits: 0,
        visitors: 0,
        leads: 0,
        downloads: 0,
        reads: 0,
        readSeconds: 0,
        readScroll: 0,
      })
      for (const channel of CONTACT_CHANNELS) entry[channel] = 0
      totals.set(key, entry)
    }
    return entry
  }
  if (query.by === 'day') for (const day of daysOf(query.from, query.to)) row(day)
  /** by=page: each page's web vitals' histograms over the period (vitals.mjs). @type {Map<string, Histograms>} */
  const vitals = new Map()
  /** @param {string} page @param {string} metric @param {number} bucket @param {number} n */
  const addSamples = (page, metric, bucket, n) => {
    let histograms = vitals.get(page)
    if (!histograms) vitals.set(page, (histograms = new Map()))
    let histogram = histograms.get(metric)
    if (!histogram) histograms.set(metric, (histogram = new Map()))
    histogram.set(bucket, (histogram.get(bucket) ?? 0) + n)
  }

  await db.transaction(async (tx) => {
    await tx.exec('set local role analytics_reader')
    const dimension = query.by === 'day' ? (query.path ? 'page' : 'site') : query.by
    const keyFilter = query.by === 'day' ? (query.path ?? SITE_KEY) : query.path
    const group = query.by === 'day' ? 'day::text' : 'key'
    // The contact columns are named after the channels (measures.mjs), one column each.
    const contacts = CONTACT_CHANNELS.map((channel) => `sum(${channel})::int8 as ${channel}`)
    const counts = await tx.query(
      `select ${group} as key, sum(visits)::int8 as visits, sum(visitors)::int8 as visitors,
         ${contacts.join(', ')}, sum(reads)::int8 as reads,
         sum(read_seconds)::int8 as read_seconds, sum(read_scroll)::int8 as read_scroll
       from analytics.daily_counts
       where dimension = $1 and day between $2::date and $3::date
         and ($4::text is null or key = $4::text)
       group by 1`,
      [dimension, query.from, query.to, keyFilter ?? null],
    )
    for (const count of counts.rows) {
      const entry = row(String(count.key))
      entry.visits += Number(count.visits)
      entry.visitors += Number(count.visitors)
      for (const channel of CONTACT_CHANNELS) entry[channel] += Number(count[channel])
      entry.reads += Number(count.reads)
      entry.readSeconds += Number(count.read_seconds)
      entry.readScroll += Number(count.read_scroll)
    }
    if (query.by === 'page') {
      const samples = await tx.query(
        `select page, metric, bucket::int4 as bucket, sum(samples)::int8 as samples
         from analytics.vitals
         where day between $1::date and $2::date and ($3::text is null or page = $3::text)
         group by 1, 2, 3`,
        [query.from, query.to, query.path ?? null],
      )
      for (const sample of samples.rows)
        addSamples(
          String(sample.page),
          String(sample.metric),
          Number(sample.bucket),
          Number(sample.samples),
        )
    }
    // A conversion counts under the key of each dimension it was stored with (dimensionKeys),
    // none under a dimension added after it.
    for (const { measure, kind } of CONVERSION_COUNTS) {
      const conversions = await tx.query(
        `select day::text as day, conversions::int8 as n, dimensions as keys
         from analytics.conversion_counts($1::text, $2::date, $3::date)`,
        [kind, query.from, query.to],
      )
      for (const conversion of conversions.rows) {
        const keys =
          typeof conversion.keys === 'string' ? JSON.parse(conversion.keys) : conversion.keys
        if (query.by !== 'day' && !(query.by in keys)) continue
        // One page's: those sent from it, or (by=landing) those whose visit entered there.
        if (query.path && (query.by === 'landing' ? keys.landing : keys.page) !== query.path)
          continue
        const key = query.by === 'day' ? conversion.day : keys[query.by]
        row(String(key))[measure] += Number(conversion.n)
      }
    }
  })

  /** @param {[string, Sums]} a @param {[string, Sums]} b */
  const order = ([aKey, a], [bKey, b]) =>
    query.by === 'day'
      ? aKey.localeCompare(bKey)
      : b.visitors - a.visitors ||
        b.leads - a.leads ||
        b.downloads - a.downloads ||
        b.visits - a.visits ||
        aKey.localeCompare(bKey)
  let entries = [...totals.entries()].sort(order)
  // A period of 400 days could hold tens of thousands of keys: past REPORT_MAX_ROWS the rest is
  // summed into one '(outras)' row, last, so every total still adds up. Days are never folded.
  if (query.by !== 'day' && entries.length > REPORT_MAX_ROWS) {
    const kept = entries.filter(([key]) => key !== OTHER_KEY).slice(0, REPORT_MAX_ROWS - 1)
    const keptKeys = new Set(kept.map(([key]) => key))
    /** @type {Sums} */
    const rest = /** @type {Sums} */ ({})
    for (const [key, entry] of entries) {
      if (keptKeys.has(key)) continue
      for (const [measure, value] of Object.entries(entry))
        rest[measure] = (rest[measure] ?? 0) + value
      // Their samples too: the (outras) row's p75 is that of every page folded into it.
      if (key === OTHER_KEY) continue
      for (const [metric, histogram] of vitals.get(key) ?? [])
        for (const [bucket, n] of histogram) addSamples(OTHER_KEY, metric, bucket, n)
    }
    entries = [...kept, [OTHER_KEY, rest]]
  }

  const rows = entries.map(([key, entry]) => {
    /** @type {ReportRowData} */
    const result = {
      key,
      visits: entry.visits,
      visitors: entry.visitors,
      leads: entry.leads,
      conversion: conversionRate(entry.leads, entry.visitors),
      downloads: entry.downloads ?? 0,
      whatsapp: entry.whatsapp ?? 0,
      phone: entry.phone ?? 0,
      email: entry.email ?? 0,
      engagedSeconds:
        entry.reads > 0 ? Math.round((entry.readSeconds / entry.reads) * 10) / 10 : null,
      scrollDepth:
        entry.reads > 0 ? Math.min(100, Math.round(entry.readScroll / entry.reads)) : null,
    }
    // A page's speed as its visitors lived it: null where no view of it sent a figure.
    if (query.by === 'page')
      for (const spec of VITAL_SPECS)
        result[spec.field] = p75(spec.name, vitals.get(key)?.get(spec.name) ?? [])
    return result
  })
  return { from: query.from, to: query.to, by: query.by, rows }
}

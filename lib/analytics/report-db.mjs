// The figures of one report, read from the aggregates (supabase/migrations/*_visit_analytics.sql)
// as the role analytics_reader. Shared by GET /api/analytics (lib/analytics/store.ts) and
// `npm run stats` (scripts/stats.mjs), so both print the same numbers. Plain JavaScript (typed
// with JSDoc) so that the node script can import it without a TypeScript loader.

/**
 * @typedef {import('../leads/db.mjs').Database} Database
 * @typedef {'page' | 'campaign' | 'source' | 'day'} ReportGroup
 * @typedef {{ from: string, to: string, by: ReportGroup, path?: string }} ReportRequest
 * @typedef {{ key: string, visits: number, visitors: number, leads: number, conversion: number }} ReportRowData
 */

/** The key of the whole-site row (lib/analytics/collect.ts). */
export const SITE_KEY = 'total'

/**
 * leads ÷ visitors in [0, 1]: 0 with no visitors, 1 at most (more leads than visitors happens).
 * @param {number} leads @param {number} visitors
 */
export function conversionRate(leads, visitors) {
  if (!(visitors > 0) || !(leads > 0)) return 0
  return Math.min(1, leads / visitors)
}

/** Every day from `from` to `to`, YYYY-MM-DD. @param {string} from @param {string} to */
export function daysOf(from, to) {
  /** @type {string[]} */
  const days = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10))
  return days
}

/**
 * The figures of one request (the `path` filter goes with by=page and by=day only).
 * @param {Database} db
 * @param {ReportRequest} query
 * @returns {Promise<{ from: string, to: string, by: ReportGroup, rows: ReportRowData[] }>}
 */
export async function queryReport(db, query) {
  /** @type {Map<string, { visits: number, visitors: number, leads: number }>} */
  const totals = new Map()
  /** @param {string} key */
  const row = (key) => {
    let entry = totals.get(key)
    if (!entry) totals.set(key, (entry = { visits: 0, visitors: 0, leads: 0 }))
    return entry
  }
  if (query.by === 'day') for (const day of daysOf(query.from, query.to)) row(day)

  await db.transaction(async (tx) => {
    await tx.exec('set local role analytics_reader')
    const dimension = query.by === 'day' ? (query.path ? 'page' : 'site') : query.by
    const keyFilter = query.by === 'day' ? (query.path ?? SITE_KEY) : query.path
    const group = query.by === 'day' ? 'day::text' : 'key'
    const counts = await tx.query(
      `select ${group} as key, sum(visits)::int8 as visits, sum(visitors)::int8 as visitors
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
    }
    const leads = await tx.query(
      `select day::text as day, page, campaign, source, leads::int8 as leads
       from analytics.lead_counts($1::date, $2::date)`,
      [query.from, query.to],
    )
    for (const lead of leads.rows) {
      if (query.path && lead.page !== query.path) continue
      const key = query.by === 'day' ? lead.day : lead[query.by]
      row(String(key)).leads += Number(lead.leads)
    }
  })

  const rows = [...totals.entries()].map(([key, entry]) => ({
    key,
    ...entry,
    conversion: conversionRate(entry.leads, entry.visitors),
  }))
  rows.sort((a, b) =>
    query.by === 'day'
      ? a.key.localeCompare(b.key)
      : b.visitors - a.visitors ||
        b.leads - a.leads ||
        b.visits - a.visits ||
        a.key.localeCompare(b.key),
  )
  return { from: query.from, to: query.to, by: query.by, rows }
}

import type { Database } from '@/lib/leads/db.mjs'

import type { BatchRow, Dimension } from './collect'
import { SITE_KEY } from './collect'
import { conversionRate, type Report, type ReportQuery, type ReportRow } from './report-schema'

// The aggregates in PostgreSQL (supabase/migrations/*_visit_analytics.sql), through the roles the
// migration makes: writes as analytics_writer (it may only call record_views), reads as
// analytics_reader (aggregates and lead counts only). The same SQL runs on the embedded PGlite
// and on a real PostgreSQL (ANALYTICS_DATABASE_URL).

async function asRole<T>(
  db: Database,
  role: 'analytics_writer' | 'analytics_reader',
  fn: (tx: Pick<Database, 'query'>) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.exec(`set local role ${role}`)
    return fn(tx)
  })
}

/** Writes one batch (collect.ts); a batch id already written is not counted again. */
export async function writeBatch(db: Database, batchId: string, rows: BatchRow[]): Promise<void> {
  await asRole(db, 'analytics_writer', (tx) =>
    tx.query('select analytics.record_views($1::uuid, $2::jsonb) as written', [
      batchId,
      JSON.stringify(rows),
    ]),
  )
}

const GROUP_DIMENSION: Record<Exclude<ReportQuery['by'], 'day'>, Dimension> = {
  page: 'page',
  campaign: 'campaign',
  source: 'source',
}

type Totals = { visits: number; visitors: number; leads: number }

/** Every day from `from` to `to`, YYYY-MM-DD. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10))
  return days
}

/** The figures of one query (the `path` filter goes with by=page and by=day only). */
export async function readReport(db: Database, query: ReportQuery): Promise<Report> {
  const totals = new Map<string, Totals>()
  const row = (key: string) => {
    let entry = totals.get(key)
    if (!entry) totals.set(key, (entry = { visits: 0, visitors: 0, leads: 0 }))
    return entry
  }
  if (query.by === 'day') for (const day of daysOf(query.from, query.to)) row(day)

  await asRole(db, 'analytics_reader', async (tx) => {
    const dimension =
      query.by === 'day' ? (query.path ? 'page' : 'site') : GROUP_DIMENSION[query.by]
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

  const rows: ReportRow[] = [...totals.entries()].map(([key, entry]) => ({
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

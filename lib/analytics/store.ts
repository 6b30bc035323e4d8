import type { Database } from '@/lib/leads/db.mjs'

import type { BatchRow, VitalRow } from './collect'
import { CAPPED_DIMENSIONS } from './measures.mjs'
import { queryReport } from './report-db.mjs'
import type { Report, ReportQuery } from './report-schema'
import { AGGREGATE_RETENTION_MONTHS } from './retention'

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

/**
 * Writes one batch (collect.ts) and its web vitals' samples, in one transaction; a batch id already
 * written is not counted again. Each row says whether its dimension is capped (record_views,
 * 20270410000000_analytics_generic.sql); the samples go to record_vitals
 * (20270401000000_web_vitals.sql).
 */
export async function writeBatch(
  db: Database,
  batchId: string,
  rows: BatchRow[],
  vitals: VitalRow[] = [],
): Promise<void> {
  const batch = rows.map((row) => ({ ...row, capped: CAPPED_DIMENSIONS.has(row.dimension) }))
  await asRole(db, 'analytics_writer', async (tx) => {
    if (rows.length > 0)
      await tx.query('select analytics.record_views($1::uuid, $2::jsonb) as written', [
        batchId,
        JSON.stringify(batch),
      ])
    if (vitals.length > 0)
      await tx.query('select analytics.record_vitals($1::uuid, $2::jsonb) as written', [
        batchId,
        JSON.stringify(vitals),
      ])
  })
}

/**
 * Deletes the daily aggregates older than AGGREGATE_RETENTION_MONTHS (the privacy policy's
 * promise); returns how many rows went.
 */
export async function purgeAggregates(db: Database): Promise<number> {
  const result = await asRole(db, 'analytics_writer', (tx) =>
    tx.query('select analytics.purge_aggregates($1::integer) as removed', [
      AGGREGATE_RETENTION_MONTHS,
    ]),
  )
  return Number(result.rows[0]?.removed ?? 0)
}

/** The figures of one query (the `path` filter goes with by=page and by=day only). */
export async function readReport(db: Database, query: ReportQuery): Promise<Report> {
  return queryReport(db, query)
}

/** Names a campaign (the Studio's link builder): it always gets its own row. False past 1,000. */
export async function nameCampaign(db: Database, campaign: string): Promise<boolean> {
  const result = await asRole(db, 'analytics_writer', (tx) =>
    tx.query(`select analytics.name_value('campaign', $1::text) as named`, [campaign]),
  )
  return result.rows[0]?.named === true
}

/** The campaigns named in the Studio, newest first. */
export async function namedCampaigns(db: Database): Promise<string[]> {
  const result = await asRole(db, 'analytics_reader', (tx) =>
    tx.query(
      `select key from analytics.named_values where dimension = 'campaign' order by named_at desc`,
    ),
  )
  return result.rows.map((row) => String(row.key))
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createCollector, type VitalRow } from '@/lib/analytics/collect'
import { createSharedState } from '@/lib/analytics/shared-state'
import { purgeAggregates, readReport, writeBatch } from '@/lib/analytics/store'
import { lastBucket, vitalBucket } from '@/lib/analytics/vitals.mjs'
import { applyMigrations, queryAsAnon, type Database } from '@/lib/leads/db.mjs'

import { backendLabel, createTestDatabase, sqlStateOf, type TestDatabase } from './helpers/database'

// The speed visitors' browsers measured, in the database (supabase/migrations/
// 20270401000000_web_vitals.sql) on PGlite, or on a real PostgreSQL when DATABASE_URL is set:
// beacons through the collector into the histograms, and the report's p75 per page.

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const KNOWN = new Set(['/', '/calculadora', '/conteudos'])

const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())

function asRole(db: Database, role: string, sql: string, params: unknown[] = []) {
  return db.transaction(async (tx) => {
    await tx.exec(`set local role ${role}`)
    return tx.query(sql, params)
  })
}

describe(`web vitals in the database (${backendLabel})`, { timeout: 60_000 }, () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
    await applyMigrations(test.db)
  }, 60_000)

  afterAll(async () => {
    await test?.close()
  })

  it("records each view's figures through the collector and reports each page's p75", async () => {
    const { db } = test
    const shared = createSharedState(undefined)
    const collector = createCollector({
      site: 'https://vigia.example',
      saltFor: shared.saltFor,
      firstSeen: shared.firstSeen,
      reading: shared.reading,
      isKnownPath: (path) => KNOWN.has(path),
      write: (id, rows, vitals) => writeBatch(db, id, rows, vitals),
    })
    // Eight visitors on the home page: LCP 1,000 to 8,000 ms (p75: the 6th, 6,000 ms), INP for
    // the four who tapped something, CLS 0.01 to 0.08. Two on /calculadora with LCP only, one of
    // them a minute long (capped). /conteudos is viewed, its reading sent without a figure.
    const visit = async (ip: string, path: string, vitals: Record<string, unknown>) => {
      await collector.record({ ip, userAgent: CHROME, body: { path } })
      return collector.record({
        ip,
        userAgent: CHROME,
        body: { path, event: 'read', seconds: 5, scroll: 40, first: true, ...vitals },
      })
    }
    for (let i = 1; i <= 8; i++)
      await visit(`198.51.100.${i}`, '/', {
        lcp: i * 1000,
        cls: i / 100,
        ...(i <= 4 ? { inp: i * 100 } : {}),
      })
    await visit('198.51.100.20', '/calculadora', { lcp: 1500 })
    await visit('198.51.100.21', '/calculadora', { lcp: 1e12 })
    await visit('198.51.100.22', '/conteudos', {})
    // A later report of a home view, and the same first report again: nothing more.
    await collector.record({
      ip: '198.51.100.1',
      userAgent: CHROME,
      body: { path: '/', event: 'read', seconds: 1, first: false, lcp: 50_000 },
    })
    await collector.record({
      ip: '198.51.100.1',
      userAgent: CHROME,
      body: { path: '/', event: 'read', seconds: 1, first: true, lcp: 50_000 },
    })
    await collector.flush()
    expect(collector.pending()).toMatchObject({ batches: 0 })

    const day = today()
    const report = await readReport(db, { format: 'json', from: day, to: day, by: 'page' })
    const row = (key: string) => report.rows.find((r) => r.key === key)
    const near = (value: number | null | undefined, expected: number) => {
      expect(value).not.toBeNull()
      expect(value!).toBeGreaterThanOrEqual(expected)
      expect(value!).toBeLessThanOrEqual(expected * 1.045)
    }
    near(row('/')?.lcpP75, 6000)
    // Four INP samples (100 to 400 ms): the 3rd.
    near(row('/')?.inpP75, 300)
    near(row('/')?.clsP75, 0.06)
    expect(Number.isInteger(row('/')!.lcpP75)).toBe(true)
    expect(row('/')!.clsP75! * 100).toBeCloseTo(Math.round(row('/')!.clsP75! * 100), 8)
    // Two samples: the 2nd, capped at a minute.
    expect(row('/calculadora')).toMatchObject({ lcpP75: 60_000, inpP75: null, clsP75: null })
    expect(row('/conteudos')).toMatchObject({ lcpP75: null, inpP75: null, clsP75: null })

    // One page's figures (the document's tab): the same p75.
    const one = await readReport(db, { format: 'json', from: day, to: day, by: 'page', path: '/' })
    expect(one.rows).toHaveLength(1)
    expect(one.rows[0]!.lcpP75).toBe(row('/')!.lcpP75)
    // Other groupings carry none.
    const byCampaign = await readReport(db, { format: 'json', from: day, to: day, by: 'campaign' })
    expect(byCampaign.rows[0]).not.toHaveProperty('lcpP75')
  })

  it('adds a retried batch once, skips rows no collector sends, and reads a period of days', async () => {
    const { db } = test
    const sample = (day: string, value: number, count = 1): VitalRow => ({
      day,
      page: '/p/velocidade',
      metric: 'lcp',
      bucket: vitalBucket('lcp', value)!,
      count,
    })
    const id = '00000000-0000-4000-8000-000000006701'
    await writeBatch(db, id, [], [sample('2026-03-01', 1000, 3)])
    await writeBatch(db, id, [], [sample('2026-03-01', 1000, 3)])
    await writeBatch(
      db,
      '00000000-0000-4000-8000-000000006702',
      [],
      [
        sample('2026-03-02', 5000, 1),
        // Not from the collector: unknown metric, bucket out of range, no count.
        { ...sample('2026-03-02', 9000), metric: 'fid' as never },
        { ...sample('2026-03-02', 9000), bucket: 999 },
        { ...sample('2026-03-02', 9000), count: 0 },
      ],
    )
    const stored = await db.query(
      `select day::text as day, bucket::int4 as bucket, samples::int4 as samples
       from analytics.vitals where page = '/p/velocidade' order by day`,
    )
    expect(stored.rows).toEqual([
      { day: '2026-03-01', bucket: vitalBucket('lcp', 1000), samples: 3 },
      { day: '2026-03-02', bucket: vitalBucket('lcp', 5000), samples: 1 },
    ])
    // A report's rows are the pages viewed in the period: the 1st has a row, the 2nd none.
    await writeBatch(db, '00000000-0000-4000-8000-000000006703', [
      {
        day: '2026-03-01',
        dimension: 'page',
        key: '/p/velocidade',
        visits: 4,
        visitors: ['0123456789abcdef0123456789abcdef'],
      },
    ])
    const period = await readReport(db, {
      format: 'json',
      from: '2026-03-01',
      to: '2026-03-02',
      by: 'page',
    })
    // Four samples over both days: 1,000 ×3 and 5,000: the p75 is the 3rd, 1,000 ms.
    const lcp = period.rows.find((r) => r.key === '/p/velocidade')!.lcpP75!
    expect(lcp).toBeGreaterThanOrEqual(1000)
    expect(lcp).toBeLessThanOrEqual(1045)
    const second = await readReport(db, {
      format: 'json',
      from: '2026-03-02',
      to: '2026-03-02',
      by: 'page',
    })
    expect(second.rows.find((r) => r.key === '/p/velocidade')).toBeUndefined()
    expect(lastBucket('lcp')).toBeLessThan(256)
  })

  it('lets the writer add samples but read none, the reader read them but add none, anon nothing', async () => {
    const { db } = test
    const denied = '42501'
    const record = `select analytics.record_vitals(gen_random_uuid(), '[]')`
    expect(await sqlStateOf(asRole(db, 'analytics_writer', 'select * from analytics.vitals'))).toBe(
      denied,
    )
    await asRole(db, 'analytics_writer', record)
    await asRole(db, 'analytics_reader', 'select * from analytics.vitals')
    expect(await sqlStateOf(asRole(db, 'analytics_reader', record))).toBe(denied)
    expect(await sqlStateOf(asRole(db, 'analytics_reader', 'delete from analytics.vitals'))).toBe(
      denied,
    )
    for (const sql of ['select * from analytics.vitals', record])
      expect(await sqlStateOf(queryAsAnon(db, sql)), `anon: ${sql}`).toBe(denied)
  })

  it('deletes the samples past the retention of the daily counts, and keeps the rest', async () => {
    const { db } = test
    const sp = `(now() at time zone 'America/Sao_Paulo')::date`
    for (const months of [26, 24])
      await db.query(
        `insert into analytics.vitals (day, page, metric, bucket, samples)
         values ((${sp} - make_interval(months => $1::integer))::date, $2, 'lcp', 100, 1)`,
        [months, `/retencao-${months}`],
      )
    expect(await purgeAggregates(db)).toBeGreaterThanOrEqual(1)
    const kept = await db.query(
      `select page from analytics.vitals where page like '/retencao-%' order by page`,
    )
    expect(kept.rows.map((r) => r.page)).toEqual(['/retencao-24'])
  })
})

import fs from 'node:fs'
import net from 'node:net'

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import {
  addressBucket,
  createCollector,
  namedValuesCache,
  type Collector,
} from '@/lib/analytics/collect'
import { createSharedState, dayEnd, dayStart, SALT_TTL_SECONDS } from '@/lib/analytics/shared-state'
import {
  CAP_PER_DAY,
  PROMOTE_ADDRESSES,
  PROMOTIONS_PER_DAY,
  READ_SECONDS_PER_DAY,
  REPORT_MAX_ROWS,
} from '@/lib/analytics/measures.mjs'
import { REPORT_MAX_DAYS } from '@/lib/analytics/report-schema'
import { AGGREGATE_RETENTION_MONTHS } from '@/lib/analytics/retention'
import {
  nameCampaign,
  namedCampaigns,
  purgeAggregates,
  readReport,
  writeBatch,
} from '@/lib/analytics/store'
import { composeLeadRecord } from '@/lib/leads/compose'
import { applyMigrations, queryAsAnon, type Database } from '@/lib/leads/db.mjs'
import { openPostgres } from '@/lib/leads/postgres.mjs'
import { connect, type Connection } from '@/lib/redis/connection.mjs'
import type { DemoRequest } from '@/lib/validations/demo-request'

import { missingTools, startRedis, tempDir } from '../../scripts/lib/front-stack.cjs'
import { tcpProxy } from '../support/tcp-proxy'
import {
  backendLabel,
  createTestDatabase,
  hasPostgres,
  sqlStateOf,
  type TestDatabase,
  insertLeadRow,
} from './helpers/database'

// The visit counts in the database (supabase/migrations/*_visit_analytics.sql) on PGlite, or on a
// real PostgreSQL when DATABASE_URL is set (CI starts a throwaway PostgreSQL 15): the roles'
// privileges, the report joined to stored leads, two instances sharing a real redis-server, and
// outages of Redis and of the database.

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const KNOWN = new Set(['/', '/p/frotas', '/conteudos', '/conteudos/artigo', '/calculadora'])
/** The figures this file's older tests assert; the newer measures are asserted on their own. */
const core = (row: {
  key: string
  visits: number
  visitors: number
  leads: number
  conversion: number
}) => ({
  key: row.key,
  visits: row.visits,
  visitors: row.visitors,
  leads: row.leads,
  conversion: row.conversion,
})
const missingRedis = missingTools(['redis-server'])
if (missingRedis && process.env.CI) throw new Error(missingRedis)
const postgres = hasPostgres()

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

function asRole(db: Database, role: string, sql: string, params: unknown[] = []) {
  return db.transaction(async (tx) => {
    await tx.exec(`set local role ${role}`)
    return tx.query(sql, params)
  })
}

const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())

const request: DemoRequest = {
  name: 'Maria Souza',
  email: 'maria@transportadora.com.br',
  company: 'Transportadora Horizonte',
  phone: '(11) 99999-8888',
  fleetSize: '51-100',
  message: 'Origem: utm_campaign="falsa" (texto do visitante)',
}

async function storeLead(db: Database, attribution: Record<string, string>, page?: string) {
  const record = await composeLeadRecord(request, attribution, page)
  await insertLeadRow(db, record.dadosCliente)
}

function collectorOn(db: () => Database, redis?: Connection): Collector {
  const shared = createSharedState(redis)
  return createCollector({
    site: 'https://vigia.example',
    saltFor: shared.saltFor,
    firstSeen: shared.firstSeen,
    reading: shared.reading,
    isKnownPath: (path) => KNOWN.has(path),
    write: (id, rows) => writeBatch(db(), id, rows),
  })
}

describe(`visit counts in the database (${backendLabel})`, { timeout: 60_000 }, () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
    await applyMigrations(test.db)
  }, 60_000)

  afterAll(async () => {
    await test?.close()
  })

  it('gives the writer record_views only, the reader aggregates and lead counts only, and leaves anon as it was', async () => {
    const { db } = test
    const denied = '42501'
    for (const sql of [
      'select * from analytics.daily_counts',
      'select * from analytics.daily_visitors',
      'select * from public.dados_cliente',
      'select * from analytics.lead_counts(current_date, current_date)',
    ])
      expect(await sqlStateOf(asRole(db, 'analytics_writer', sql)), `writer: ${sql}`).toBe(denied)
    for (const sql of [
      'select * from analytics.daily_visitors',
      'select * from analytics.batches',
      'select * from public.dados_cliente',
      'select * from public.chat_messages',
      `select analytics.record_views(gen_random_uuid(), '[]')`,
      `update analytics.daily_counts set visits = 0`,
    ])
      expect(await sqlStateOf(asRole(db, 'analytics_reader', sql)), `reader: ${sql}`).toBe(denied)
    for (const sql of [
      'select * from analytics.daily_counts',
      `select analytics.record_views(gen_random_uuid(), '[]')`,
      'select * from analytics.lead_counts(current_date, current_date)',
      'select * from public.dados_cliente',
    ])
      expect(await sqlStateOf(queryAsAnon(db, sql)), `anon: ${sql}`).toBe(denied)
  })

  it('deletes the daily totals older than the retention the privacy policy promises, and keeps the rest', async () => {
    const { db } = test
    expect(AGGREGATE_RETENTION_MONTHS).toBe(25)
    const sp = `(now() at time zone 'America/Sao_Paulo')::date`
    for (const months of [26, 24])
      await db.query(
        `insert into analytics.daily_counts (day, dimension, key, visits, visitors)
         values ((${sp} - make_interval(months => $1::integer))::date, 'page', $2, 3, 2)`,
        [months, `/retencao-${months}`],
      )
    const kept = async () =>
      (
        await db.query(
          `select key from analytics.daily_counts where key like '/retencao-%' order by key`,
        )
      ).rows.map((row) => row.key)
    expect(await kept()).toEqual(['/retencao-24', '/retencao-26'])
    // As the server does it: analytics_writer, which still may not read what it deletes.
    expect(await purgeAggregates(db)).toBeGreaterThanOrEqual(1)
    expect(await kept()).toEqual(['/retencao-24'])
    expect(await purgeAggregates(db)).toBe(0)
    await db.query(`delete from analytics.daily_counts where key like '/retencao-%'`)
  })

  it('counts a scripted set of visits exactly and joins the stored leads', async () => {
    const { db } = test
    const collector = collectorOn(() => db)
    const campaign = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'verao-2026' }
    // Four visitors on the campaign page from the campaign, two of them also on the home page;
    // one more straight to the home page; one bot.
    for (let i = 1; i <= 4; i++)
      await collector.record({
        ip: `198.51.100.${i}`,
        userAgent: CHROME,
        body: { path: '/p/frotas', ...campaign },
      })
    for (let i = 1; i <= 2; i++)
      await collector.record({
        ip: `198.51.100.${i}`,
        userAgent: CHROME,
        body: { path: '/', ...campaign },
      })
    await collector.record({ ip: '198.51.100.9', userAgent: CHROME, body: { path: '/' } })
    await collector.record({
      ip: '198.51.100.10',
      userAgent: 'HeadlessChrome/131',
      body: { path: '/' },
    })
    await collector.flush()
    expect(collector.pending().batches).toBe(0)
    // One lead from the campaign page (campaign), one from the home page with no tags.
    await storeLead(db, campaign, 'frotas')
    await storeLead(db, {})

    const day = today()
    const byPage = await readReport(db, { from: day, to: day, by: 'page', format: 'json' })
    expect(byPage.rows.map(core)).toEqual([
      { key: '/p/frotas', visits: 4, visitors: 4, leads: 1, conversion: 0.25 },
      { key: '/', visits: 3, visitors: 3, leads: 1, conversion: 1 / 3 },
    ])
    const byCampaign = await readReport(db, { from: day, to: day, by: 'campaign', format: 'json' })
    expect(byCampaign.rows.map(core)).toEqual([
      { key: 'verao-2026', visits: 6, visitors: 4, leads: 1, conversion: 0.25 },
      { key: '(sem campanha)', visits: 1, visitors: 1, leads: 1, conversion: 1 },
    ])
    const bySource = await readReport(db, { from: day, to: day, by: 'source', format: 'json' })
    expect(bySource.rows.map((row) => [row.key, row.visitors, row.leads])).toEqual([
      ['google', 4, 1],
      ['(direto)', 1, 1],
    ])
    const yesterday = new Date(Date.parse(`${day}T12:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10)
    const byDay = await readReport(db, { from: yesterday, to: day, by: 'day', format: 'json' })
    expect(byDay.rows.map(core)).toEqual([
      { key: yesterday, visits: 0, visitors: 0, leads: 0, conversion: 0 },
      { key: day, visits: 7, visitors: 5, leads: 2, conversion: 0.4 },
    ])
    const onePage = await readReport(db, {
      from: day,
      to: day,
      by: 'day',
      format: 'json',
      path: '/p/frotas',
    })
    expect(onePage.rows.map(core)).toEqual([
      { key: day, visits: 4, visitors: 4, leads: 1, conversion: 0.25 },
    ])
  })

  it('holds campaign values to 200 a day across instances writing at once, and writes a retried batch once', async () => {
    const { db } = test
    // Each instance writes through a connection pool of its own, as separate processes do, and
    // at the same moment: the cap holds only because record_views takes its lock (without it,
    // each would count the day's values before the other's were in and both would store 150).
    // PGlite has one connection: the writes are queued there.
    const other = test.url ? await openPostgres(test.url) : db
    try {
      const day = '2026-01-15'
      const rows = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => ({
          day,
          dimension: 'campaign' as const,
          key: `c${from + i}`,
          visits: 1,
          visitors: [(from + i).toString(16).padStart(32, '0')],
        }))
      const retried = '00000000-0000-4000-8000-000000000002'
      await Promise.all([
        writeBatch(db, '00000000-0000-4000-8000-000000000001', rows(0, 150)),
        writeBatch(other, retried, rows(150, 300)),
        writeBatch(other, retried, rows(150, 300)),
      ])
      const report = await readReport(db, { from: day, to: day, by: 'campaign', format: 'json' })
      expect(CAP_PER_DAY).toBe(200)
      expect(report.rows).toHaveLength(CAP_PER_DAY + 1)
      expect(report.rows.find((row) => row.key === '(outras)')).toMatchObject({
        visits: 100,
        visitors: 100,
      })
      expect(report.rows.reduce((sum, row) => sum + row.visits, 0)).toBe(300)
    } finally {
      if (other !== db) await other.close()
    }
  })

  it('reports a campaign 3 real visitors from 3 addresses arrived from under its own name, after 300 invented ones (issue 45)', async () => {
    const { db } = test
    const day = '2026-01-16'
    const hash = (n: number) => n.toString(16).padStart(32, '0')
    const invented = Array.from({ length: 300 }, (_, i) => ({
      day,
      dimension: 'campaign' as const,
      key: `invented-${i}`,
      visits: 1,
      visitors: [hash(1000 + i)],
    }))
    await writeBatch(db, '00000000-0000-4000-8000-000000000011', invented)
    // The real campaign: three visitors from three addresses, two views each, over three batches.
    for (let i = 0; i < 3; i++)
      await writeBatch(db, `00000000-0000-4000-8000-00000000002${i}`, [
        {
          day,
          dimension: 'campaign',
          key: 'black-friday',
          visits: 2,
          visitors: [hash(5000 + i)],
          addresses: [i],
        },
      ])
    const report = await readReport(db, { from: day, to: day, by: 'campaign', format: 'json' })
    expect(report.rows.find((row) => row.key === 'black-friday')).toMatchObject({
      visits: 6,
      visitors: 3,
    })
    // Its first views left '(outras)': the day's total is unchanged.
    expect(report.rows.find((row) => row.key === '(outras)')).toMatchObject({ visits: 100 })
    expect(report.rows.reduce((sum, row) => sum + row.visits, 0)).toBe(306)
    expect(report.rows).toHaveLength(202)
  })

  it('promotes a value only once PROMOTE_ADDRESSES distinct addresses (IPv6 per /64) came from it: one client rotating its user agent promotes nothing (issue 49)', async () => {
    const fresh = await createTestDatabase()
    await applyMigrations(fresh.db)
    try {
      const { db } = fresh
      // A salt of our own, so that the three real addresses' buckets are known to differ (two of
      // three addresses share one of 256 buckets about 1% of the time: a 4th address then counts).
      const salt = Buffer.alloc(32, 3)
      const site = 'https://vigia.example'
      const shared = createSharedState(undefined)
      const collector = createCollector({
        site,
        saltFor: async () => salt,
        firstSeen: shared.firstSeen,
        reading: shared.reading,
        isKnownPath: (path) => KNOWN.has(path),
        write: (id, rows) => writeBatch(db, id, rows),
      })
      const real = ['203.0.113.51', '2001:db8:5:7::1', '2001:db8:5:8::1']
      expect(new Set(real.map((ip) => addressBucket(salt, ip, site))).size).toBe(3)
      const view = (ip: string, userAgent: string, campaign: string) =>
        collector.record({ ip, userAgent, body: { path: '/', utm_campaign: campaign } })
      // The day's first CAP_PER_DAY values have rows of their own, whoever sent them.
      for (let i = 0; i < CAP_PER_DAY; i++) await view(`10.2.${i >> 8}.${i & 255}`, CHROME, `c${i}`)
      await collector.flush()
      // One client, ten user agents: ten visitors, one address.
      for (let i = 0; i < 10; i++) await view('203.0.113.50', `${CHROME} v${i}`, 'rotacao')
      // Three addresses of one IPv6 /64 (one subscriber's): one address.
      for (const ip of ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:ffff::3'])
        await view(ip, CHROME, 'mesma-rede')
      // Three addresses, two of them of other /64s: promoted.
      for (const ip of real) await view(ip, CHROME, 'real')
      await collector.flush()
      expect(PROMOTE_ADDRESSES).toBe(3)
      const day = today()
      const report = await readReport(db, { from: day, to: day, by: 'campaign', format: 'json' })
      const rows = Object.fromEntries(report.rows.map((row) => [row.key, row]))
      expect(rows.real).toMatchObject({ visits: 3, visitors: 3 })
      expect(rows.rotacao).toBeUndefined()
      expect(rows['mesma-rede']).toBeUndefined()
      expect(rows['(outras)']).toMatchObject({ visits: 13 })
      // What the candidates keep of their addresses: one bucket each, nothing more.
      const kept = await db.query(
        `select key, cardinality(address_buckets) as n from analytics.daily_candidates
         where dimension = 'campaign' order by key`,
      )
      expect(kept.rows).toEqual([
        { key: 'mesma-rede', n: 1 },
        { key: 'rotacao', n: 1 },
      ])
    } finally {
      await fresh.close()
    }
  })

  it('promotes at most PROMOTIONS_PER_DAY values a day and dimension, a name saved in the Studio still counted (issue 49)', async () => {
    const fresh = await createTestDatabase()
    await applyMigrations(fresh.db)
    try {
      const { db } = fresh
      const day = '2026-01-20'
      const hash = (n: number) => n.toString(16).padStart(32, '0')
      const row = (key: string, n: number, addresses: number) => ({
        day,
        dimension: 'source' as const,
        key,
        visits: 1,
        visitors: [hash(n)],
        addresses: Array.from({ length: addresses }, (_, i) => i),
      })
      await writeBatch(
        db,
        '00000000-0000-4000-8000-000000000051',
        Array.from({ length: CAP_PER_DAY }, (_, i) => row(`s${i}`, 1000 + i, 1)),
      )
      // Each from PROMOTE_ADDRESSES addresses: the first PROMOTIONS_PER_DAY are promoted.
      await writeBatch(
        db,
        '00000000-0000-4000-8000-000000000052',
        Array.from({ length: PROMOTIONS_PER_DAY + 5 }, (_, i) =>
          row(`p${i}`, 5000 + i, PROMOTE_ADDRESSES),
        ),
      )
      await db.query(
        `insert into analytics.named_values (dimension, key) values ('source', 'nomeada')`,
      )
      await writeBatch(db, '00000000-0000-4000-8000-000000000053', [row('nomeada', 9000, 1)])
      const report = await readReport(db, { from: day, to: day, by: 'source', format: 'json' })
      const keys = report.rows.map((r) => r.key)
      expect(keys).toHaveLength(CAP_PER_DAY + PROMOTIONS_PER_DAY + 2)
      expect(keys).toContain(`p${PROMOTIONS_PER_DAY - 1}`)
      expect(keys).not.toContain(`p${PROMOTIONS_PER_DAY}`)
      expect(keys).toContain('nomeada')
      expect(report.rows.find((r) => r.key === '(outras)')).toMatchObject({ visits: 5 })
      const promoted = await db.query(
        `select promotions from analytics.daily_promotions where day = $1 and dimension = 'source'`,
        [day],
      )
      expect(promoted.rows).toEqual([{ promotions: PROMOTIONS_PER_DAY }])
    } finally {
      await fresh.close()
    }
  })

  it('reports a campaign named in the Studio under its own name from its first visitor, after 300 invented ones (issue 45)', async () => {
    const { db } = test
    const day = '2026-01-18'
    const hash = (n: number) => n.toString(16).padStart(32, '0')
    expect(await nameCampaign(db, 'feira-2026')).toBe(true)
    expect(await nameCampaign(db, 'feira-2026')).toBe(true)
    expect(await namedCampaigns(db)).toContain('feira-2026')
    await writeBatch(
      db,
      '00000000-0000-4000-8000-000000000041',
      Array.from({ length: 300 }, (_, i) => ({
        day,
        dimension: 'campaign' as const,
        key: `invented-${i}`,
        visits: 1,
        visitors: [hash(7000 + i)],
      })),
    )
    await writeBatch(db, '00000000-0000-4000-8000-000000000042', [
      { day, dimension: 'campaign', key: 'feira-2026', visits: 1, visitors: [hash(9000)] },
    ])
    const report = await readReport(db, { from: day, to: day, by: 'campaign', format: 'json' })
    expect(report.rows.find((row) => row.key === 'feira-2026')).toMatchObject({
      visits: 1,
      visitors: 1,
    })
    // The writer names but cannot read the names; the reader reads but cannot name.
    expect(
      await sqlStateOf(asRole(db, 'analytics_writer', 'select * from analytics.named_values')),
    ).toBe('42501')
    expect(
      await sqlStateOf(
        asRole(db, 'analytics_reader', `select analytics.name_value('campaign', 'x')`),
      ),
    ).toBe('42501')
  })

  it('reports at most REPORT_MAX_ROWS rows, the rest summed into (outras) so the totals still add up (issue 49)', async () => {
    const { db } = test
    const day = '2026-01-19'
    const keys = REPORT_MAX_ROWS + 30
    // As 400 days of promoted and named campaigns could add up to; written as the owner.
    await db.query(
      `insert into analytics.daily_counts (day, dimension, key, visits, visitors, reads, read_seconds)
       select $1::date, 'campaign', 'c' || n, n + 1, n, 1, n from generate_series(1, $2::int) n`,
      [day, keys],
    )
    await db.query(
      `insert into analytics.daily_counts (day, dimension, key, visits, visitors)
       values ($1::date, 'campaign', '(outras)', 7, 5)`,
      [day],
    )
    const report = await readReport(db, { from: day, to: day, by: 'campaign', format: 'json' })
    expect(report.rows).toHaveLength(REPORT_MAX_ROWS)
    // The most visited first; the 31 least visited and the day's own (outras) in one last row.
    expect(report.rows[0]!.key).toBe(`c${keys}`)
    expect(report.rows.at(-2)!.key).toBe('c32')
    const rest = report.rows.at(-1)!
    expect(rest).toMatchObject({ key: '(outras)', visitors: 5 + (31 * 32) / 2 })
    // Its reading is the average of the rows folded in: 31 reads of 1 to 31 s.
    expect(rest.engagedSeconds).toBe(16)
    const sum = (rows: { visits: number }[]) => rows.reduce((total, row) => total + row.visits, 0)
    expect(sum(report.rows)).toBe(7 + (keys * (keys + 1)) / 2 + keys)
    // The day report is never cut (at most REPORT_MAX_DAYS rows).
    expect(REPORT_MAX_DAYS).toBeLessThan(REPORT_MAX_ROWS)
  })

  it('counts a campaign named in the Studio under its own name when this instance is past its memory cap (issue 49)', async () => {
    const fresh = await createTestDatabase()
    await applyMigrations(fresh.db)
    try {
      const { db } = fresh
      expect(await nameCampaign(db, 'feira-memoria')).toBe(true)
      const shared = createSharedState(undefined)
      const collector = createCollector({
        site: 'https://vigia.example',
        saltFor: shared.saltFor,
        firstSeen: shared.firstSeen,
        reading: shared.reading,
        isKnownPath: (path) => KNOWN.has(path),
        // As lib/analytics/index.ts wires it: the names read as analytics_reader.
        isNamed: namedValuesCache(() => namedCampaigns(db)).isNamed,
        memoryValuesPerDay: 10,
        write: (id, rows) => writeBatch(db, id, rows),
      })
      for (let i = 0; i < 12; i++)
        await collector.record({
          ip: `198.51.100.${100 + i}`,
          userAgent: CHROME,
          body: { path: '/', utm_campaign: i === 11 ? 'feira-memoria' : `inventada-${i}` },
        })
      await collector.flush()
      const day = today()
      const report = await readReport(db, { from: day, to: day, by: 'campaign', format: 'json' })
      const keys = report.rows.map((row) => row.key)
      expect(keys).toContain('feira-memoria')
      expect(keys).not.toContain('inventada-10')
      expect(report.rows.find((row) => row.key === '(outras)')).toMatchObject({ visits: 1 })
    } finally {
      await fresh.close()
    }
  })

  it('refuses a lone surrogate as data (class 22), which the collector then drops alone', async () => {
    const { db } = test
    const error = await writeBatch(db, '00000000-0000-4000-8000-000000000031', [
      { day: '2026-01-17', dimension: 'campaign', key: 'x\ud800', visits: 1, visitors: [] },
    ]).catch((caught: unknown) => caught)
    expect((error as { code?: string }).code).toMatch(/^22/)
  })

  it('deletes the visitor hashes of a day once it is over, at the daily purge (issue 45)', async () => {
    const { db } = test
    const sp = `(now() at time zone 'America/Sao_Paulo')::date`
    await db.query(
      `insert into analytics.daily_visitors (day, dimension, key, visitor)
       values (${sp} - 1, 'page', '/', $1), (${sp}, 'page', '/', $1)`,
      ['ab'.repeat(16)],
    )
    await purgeAggregates(db)
    const left = await db.query(
      `select day::text as day from analytics.daily_visitors where visitor = $1`,
      ['ab'.repeat(16)],
    )
    expect(left.rows.map((row) => row.day)).toEqual([today()])
  })

  it('deletes the address buckets and promotion counts of a day once it is over (issue 49)', async () => {
    const { db } = test
    const sp = `(now() at time zone 'America/Sao_Paulo')::date`
    await db.query(
      `insert into analytics.daily_candidates (day, dimension, key, address_buckets)
       values (${sp} - 1, 'campaign', 'balde', '{1,2}'), (${sp}, 'campaign', 'balde', '{1}')`,
    )
    await db.query(
      `insert into analytics.daily_promotions (day, dimension, promotions)
       values (${sp} - 1, 'campaign', 4), (${sp}, 'campaign', 2)`,
    )
    await purgeAggregates(db)
    const days = async (sql: string, params: unknown[] = []) =>
      (await db.query(sql, params)).rows.map((row) => row.day)
    expect(
      await days(`select day::text as day from analytics.daily_candidates where key = 'balde'`),
    ).toEqual([today()])
    expect(await days(`select day::text as day from analytics.daily_promotions`)).toEqual([today()])
    // Nobody but record_views and the purge reads them.
    for (const role of ['analytics_writer', 'analytics_reader'])
      expect(
        await sqlStateOf(asRole(db, role, 'select * from analytics.daily_promotions')),
        role,
      ).toBe('42501')
  })

  it('counts entry pages, contact clicks once per visitor, reading, and credits leads by their attribution columns (issue 45)', async () => {
    const fresh = await createTestDatabase()
    await applyMigrations(fresh.db)
    try {
      const { db } = fresh
      const collector = collectorOn(() => db)
      const ad = { utm_source: 'Instagram', utm_medium: 'social', utm_campaign: 'artigo-fadiga' }
      const who = { ip: '198.51.100.20', userAgent: CHROME }
      // A visitor enters on the article from the ad, goes home, clicks WhatsApp five times,
      // the phone once, e-mail once, and reads the article for 8 s to the bottom.
      const touch = { ...ad, landing: '/conteudos/artigo' }
      await collector.record({ ...who, body: { path: '/conteudos/artigo', ...touch, entry: true } })
      await collector.record({
        ...who,
        body: {
          path: '/conteudos/artigo',
          ...touch,
          event: 'read',
          seconds: 8,
          scroll: 100,
          first: true,
        },
      })
      await collector.record({ ...who, body: { path: '/', ...touch } })
      for (let i = 0; i < 5; i++)
        await collector.record({
          ...who,
          body: { path: '/', ...touch, event: 'contact', channel: 'whatsapp' },
        })
      await collector.record({
        ...who,
        body: { path: '/', ...touch, event: 'contact', channel: 'phone' },
      })
      await collector.record({
        ...who,
        body: { path: '/', ...touch, event: 'contact', channel: 'email' },
      })
      // Another visitor straight to the calculator, who reads half of it in 4 s.
      const other = { ip: '198.51.100.21', userAgent: CHROME }
      await collector.record({
        ...other,
        body: { path: '/calculadora', landing: '/calculadora', entry: true },
      })
      await collector.record({
        ...other,
        body: { path: '/calculadora', event: 'read', seconds: 4, scroll: 50, first: true },
      })
      await collector.flush()
      expect(collector.pending()).toMatchObject({ batches: 0, droppedRows: 0 })
      // The first visitor's lead, sent on the home page; the second's from the calculator.
      await storeLead(db, { ...ad, landing: '/conteudos/artigo', page: '/' })
      await storeLead(db, { landing: '/calculadora', page: '/calculadora' })

      const day = today()
      const read = (by: 'page' | 'landing' | 'campaign' | 'source') =>
        readReport(db, { from: day, to: day, by, format: 'json' }).then((report) =>
          Object.fromEntries(report.rows.map((row) => [row.key, row])),
        )
      const landing = await read('landing')
      expect(landing['/conteudos/artigo']).toMatchObject({
        visits: 1,
        visitors: 1,
        leads: 1,
        whatsapp: 1,
        phone: 1,
        email: 1,
      })
      expect(landing['/calculadora']).toMatchObject({ visits: 1, leads: 1, whatsapp: 0 })
      const page = await read('page')
      expect(page['/']).toMatchObject({ visits: 1, leads: 1, whatsapp: 1, phone: 1, email: 1 })
      expect(page['/calculadora']).toMatchObject({ leads: 1, engagedSeconds: 4, scrollDepth: 50 })
      expect(page['/conteudos/artigo']).toMatchObject({
        visits: 1,
        leads: 0,
        engagedSeconds: 8,
        scrollDepth: 100,
      })
      const campaign = await read('campaign')
      expect(campaign['artigo-fadiga']).toMatchObject({ visitors: 1, leads: 1, whatsapp: 1 })
      expect(campaign['(sem campanha)']).toMatchObject({ leads: 1 })
      const source = await read('source')
      expect(source['instagram']).toMatchObject({ leads: 1, phone: 1 })
      const stored = await db.query(
        `select origem_pagina, origem_entrada, utm_source, utm_medium, utm_campaign, referrer_host
         from public.dados_cliente order by created_at, origem_pagina desc`,
      )
      expect(stored.rows).toEqual(
        expect.arrayContaining([
          {
            origem_pagina: '/',
            origem_entrada: '/conteudos/artigo',
            utm_source: 'Instagram',
            utm_medium: 'social',
            utm_campaign: 'artigo-fadiga',
            referrer_host: null,
          },
          {
            origem_pagina: '/calculadora',
            origem_entrada: '/calculadora',
            utm_source: null,
            utm_medium: null,
            utm_campaign: null,
            referrer_host: null,
          },
        ]),
      )
    } finally {
      await fresh.close()
    }
  })

  describe.skipIf(Boolean(missingRedis))('two instances sharing a real redis-server', () => {
    let dir: string
    let redis: { url: string; stop: () => Promise<void> }
    let proxyPort: number
    let proxy: ReturnType<typeof tcpProxy>
    const connections: Connection[] = []

    beforeAll(async () => {
      dir = tempDir('vigia-analytics-')
      const redisPort = await freePort()
      redis = await startRedis({ port: redisPort, dir })
      proxyPort = await freePort()
      proxy = tcpProxy({ port: proxyPort, target: redisPort })
      await proxy.open()
    }, 30_000)

    afterAll(async () => {
      for (const conn of connections) await conn.client.disconnect().catch(() => {})
      await proxy?.close()
      await redis?.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    })

    async function instance(db: () => Database) {
      const conn = connect(proxy.url())
      connections.push(conn)
      await vi.waitFor(() => expect(conn.client.isReady).toBe(true), { timeout: 5000 })
      return collectorOn(db, conn)
    }

    it('share one salt a day, made by the first instance with SET NX EX (48 h), so at most two days are held', async () => {
      const admin = connect(proxy.url())
      connections.push(admin)
      await vi.waitFor(() => expect(admin.client.isReady).toBe(true), { timeout: 5000 })
      const [a, b] = [connect(proxy.url()), connect(proxy.url())]
      connections.push(a, b)
      await vi.waitFor(() => expect(a.client.isReady && b.client.isReady).toBe(true), {
        timeout: 5000,
      })
      // An hour into 2026-05-10 (São Paulo) on both instances' clocks: the salt's expiry is
      // counted from its day's start, so it has 47 h left, whenever the test runs.
      const now = () => dayStart('2026-05-10') + 3600_000
      const sharedA = createSharedState(a, now)
      const sharedB = createSharedState(b, now)
      const key = (day: string) => `vigia:analytics:salt:${day}`

      // Two instances asking at once: one salt, whichever wrote first.
      const [saltA, saltB] = await Promise.all([
        sharedA.saltFor('2026-05-10'),
        sharedB.saltFor('2026-05-10'),
      ])
      expect(saltA).toEqual(saltB)
      expect(await admin.client.get(key('2026-05-10'))).toBe(saltA.toString('hex'))
      // EX: it expires SALT_TTL_SECONDS (48 h) after its day started, never later.
      expect(SALT_TTL_SECONDS).toBe(48 * 3600)
      const ttl = await admin.client.ttl(key('2026-05-10'))
      expect(ttl).toBeGreaterThan(SALT_TTL_SECONDS - 3600 - 60)
      expect(ttl).toBeLessThanOrEqual(SALT_TTL_SECONDS - 3600)

      // NX: a salt another instance made is used, never replaced (nor its expiry extended).
      const theirs = 'ab'.repeat(32)
      await admin.client.set(key('2026-05-11'), theirs, { EX: 1000 })
      expect((await sharedA.saltFor('2026-05-11')).toString('hex')).toBe(theirs)
      expect(await admin.client.get(key('2026-05-11'))).toBe(theirs)
      expect(await admin.client.ttl(key('2026-05-11'))).toBeLessThanOrEqual(1000)

      // Each salt is gone 48 h after its day started, so Redis holds today's and yesterday's at most.
      for (const day of await admin.client.keys('vigia:analytics:salt:*'))
        expect(await admin.client.ttl(day)).toBeLessThanOrEqual(SALT_TTL_SECONDS)
    })

    it('share each visitor’s reading allowance: a view counted by one lets the other count its reading, once, to READ_SECONDS_PER_DAY, until the day ends (issue 49)', async () => {
      const fresh = await createTestDatabase()
      await applyMigrations(fresh.db)
      try {
        const a = await instance(() => fresh.db)
        const b = await instance(() => fresh.db)
        const who = { ip: '203.0.113.77', userAgent: CHROME }
        const read = (seconds: number) => ({
          ...who,
          body: {
            path: '/conteudos/artigo',
            event: 'read' as const,
            seconds,
            scroll: 60,
            first: true,
          },
        })
        // Before any view, neither counts it.
        expect(await b.record(read(30))).toBe('ignored')
        expect(await a.record({ ...who, body: { path: '/conteudos/artigo' } })).toBe('counted')
        // Reports split between the two instances still share one allowance.
        expect(await b.record(read(1000))).toBe('counted')
        expect(await a.record(read(1000))).toBe('counted')
        expect(await b.record(read(1000))).toBe('ignored')
        await Promise.all([a.flush(), b.flush()])
        const day = today()
        const report = await readReport(fresh.db, {
          from: day,
          to: day,
          by: 'page',
          format: 'json',
        })
        expect(report.rows.find((row) => row.key === '/conteudos/artigo')).toMatchObject({
          visits: 1,
          engagedSeconds: READ_SECONDS_PER_DAY,
          scrollDepth: 100,
        })
        // Another user agent of the same address, on either instance: its view counts, but the
        // address's tally (issue 66) leaves it a read of its view and no seconds.
        const rotated = { ...who, userAgent: `${CHROME} rotated` }
        expect(await b.record({ ...rotated, body: { path: '/conteudos/artigo' } })).toBe('counted')
        expect(await a.record({ ...read(1000), ...rotated })).toBe('counted')
        await Promise.all([a.flush(), b.flush()])
        expect(
          (
            await readReport(fresh.db, { from: day, to: day, by: 'page', format: 'json' })
          ).rows.find((row) => row.key === '/conteudos/artigo'),
        ).toMatchObject({ visits: 2, engagedSeconds: READ_SECONDS_PER_DAY / 2 })
        // The tallies (keyed by the day's visitor hashes and by the address's hash) are gone when
        // their day ends.
        const admin = connect(proxy.url())
        connections.push(admin)
        await vi.waitFor(() => expect(admin.client.isReady).toBe(true), { timeout: 5000 })
        const keys = await admin.client.keys('vigia:analytics:reading:*')
        expect(keys).toHaveLength(3)
        expect(keys.filter((key) => key.includes(':address:'))).toHaveLength(1)
        const asked = Date.now()
        for (const key of keys)
          expect(Math.abs(asked + (await admin.client.pTTL(key)) - dayEnd(day))).toBeLessThan(2000)
      } finally {
        await fresh.close()
      }
    })

    it('give one exact total, a visitor counted once whichever instance saw them, replays dropped, and nothing lost while Redis is down', async () => {
      const fresh = await createTestDatabase()
      await applyMigrations(fresh.db)
      try {
        const a = await instance(() => fresh.db)
        const b = await instance(() => fresh.db)
        // 30 visitors: each sees / on A, the campaign page on B, and replays both on the other.
        for (let i = 1; i <= 30; i++) {
          const who = { ip: `203.0.113.${i}`, userAgent: CHROME }
          expect(await a.record({ ...who, body: { path: '/' } })).toBe('counted')
          expect(await b.record({ ...who, body: { path: '/p/frotas' } })).toBe('counted')
          expect(await b.record({ ...who, body: { path: '/' } })).toBe('duplicate')
          expect(await a.record({ ...who, body: { path: '/p/frotas' } })).toBe('duplicate')
        }
        await Promise.all([a.flush(), b.flush()])
        const day = today()
        let report = await readReport(fresh.db, { from: day, to: day, by: 'day', format: 'json' })
        expect(report.rows.map(core)).toEqual([
          { key: day, visits: 60, visitors: 30, leads: 0, conversion: 0 },
        ])

        // Redis goes away: both instances keep counting views, each on its own.
        vi.spyOn(console, 'warn').mockImplementation(() => {})
        await proxy.close()
        await vi.waitFor(() => expect(connections.every((c) => !c.client.isReady)).toBe(true))
        for (let i = 31; i <= 40; i++) {
          await a.record({ ip: `203.0.113.${i}`, userAgent: CHROME, body: { path: '/' } })
          await b.record({ ip: `203.0.113.${i}`, userAgent: CHROME, body: { path: '/conteudos' } })
        }
        await Promise.all([a.flush(), b.flush()])
        report = await readReport(fresh.db, { from: day, to: day, by: 'page', format: 'json' })
        expect(Object.fromEntries(report.rows.map((row) => [row.key, row.visits]))).toEqual({
          '/': 40,
          '/p/frotas': 30,
          '/conteudos': 10,
        })
        await proxy.open()
      } finally {
        vi.restoreAllMocks()
        await fresh.close()
      }
    })
  })

  describe.skipIf(!postgres)('the database down and back (real PostgreSQL)', () => {
    it('keeps every count in memory while PostgreSQL is unreachable and writes them, once, when it returns', async () => {
      const port = await freePort()
      const target = new URL(test.url!)
      const proxy = tcpProxy({ port, target: Number(target.port || 5432) })
      await proxy.open()
      const through = new URL(test.url!)
      through.port = String(port)
      const db = await openPostgres(through.toString())
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      vi.spyOn(console, 'info').mockImplementation(() => {})
      try {
        const collector = collectorOn(() => db)
        const day = today()
        const before = await readReport(test.db, { from: day, to: day, by: 'day', format: 'json' })
        await proxy.close()
        for (let i = 1; i <= 25; i++)
          await collector.record({
            ip: `192.0.2.${i}`,
            userAgent: CHROME,
            body: { path: '/conteudos' },
          })
        await collector.flush()
        await collector.flush()
        expect(collector.pending()).toMatchObject({ views: 25 })
        expect(warn.mock.calls.flat().join(' ')).toMatch(/kept in memory/)
        await proxy.open()
        await collector.flush()
        expect(collector.pending()).toMatchObject({ views: 0, batches: 0 })
        const after = await readReport(test.db, { from: day, to: day, by: 'day', format: 'json' })
        expect(after.rows[0]!.visits - before.rows[0]!.visits).toBe(25)
        expect(after.rows[0]!.visitors - before.rows[0]!.visitors).toBe(25)
      } finally {
        vi.restoreAllMocks()
        await db.close()
        await proxy.close()
      }
    })
  })
})

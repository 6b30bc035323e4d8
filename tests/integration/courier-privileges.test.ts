import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { applyMigrations, queryAsAnon, type Database } from '@/lib/leads/db.mjs'
import {
  claimDue,
  deliveryStats,
  disableDestination,
  enableDestinations,
  failedWhileOff,
  LEAD_RETENTION_MONTHS,
  purgeExpired,
  recordAttempt,
  reportCourier,
  retryFailed,
} from '@/lib/leads/delivery/queue.mjs'
import type { MaterialConversionRecord } from '@/lib/leads/types'

import {
  backendLabel,
  createTestDatabase,
  insertLeadRow,
  sqlStateOf,
  type TestDatabase,
} from './helpers/database'
import { leadRecord, materialRecord } from './helpers/records'

// Least privilege in the grants, not only in the code (issue 66,
// supabase/migrations/20270330000000_courier_least_privilege.sql): each login's refusals, asked of
// the database itself as that login, and the courier's normal work through its functions.

let test: TestDatabase
let db: Database

/** Runs sql as role in a transaction of its own; resolves to the rows, or rejects. */
function as(role: string, sql: string, params: unknown[] = []) {
  return db.transaction(async (tx) => {
    await tx.exec(`set local role ${role}`)
    return (await tx.query(sql, params)).rows
  })
}
const asCourier = (sql: string, params?: unknown[]) => as('lead_courier', sql, params)

async function storeLead(company: string) {
  await insertLeadRow(
    db,
    leadRecord({
      dadosCliente: { atendimento_ia: `Dados do formulário do site | Empresa: ${company}` },
    }).dadosCliente,
  )
}

async function storeConversion(record: MaterialConversionRecord) {
  const row = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined))
  const columns = Object.keys(row)
  await queryAsAnon(
    db,
    `insert into public.conversoes_material (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row).map((value) =>
      value !== null && typeof value === 'object' ? JSON.stringify(value) : value,
    ),
  )
}

async function rows(sql: string) {
  return (await db.query(sql)).rows
}

async function clearQueue() {
  await db.exec(`delete from lead_delivery.deliveries; delete from lead_delivery.couriers;
    delete from public.conversoes_material; update lead_delivery.destinations set enabled = false;`)
}

beforeAll(async () => {
  test = await createTestDatabase()
  db = test.db
  await applyMigrations(db)
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe(`the courier's login on ${backendLabel} (issue 66)`, () => {
  it('cannot switch a destination off, delete a delivery or mark one delivered itself', async () => {
    await enableDestinations(db, ['webhook', 'email'])
    await storeLead('Recusas')
    const before = await rows(
      `select id, status, attempts, lead is not null as copy from lead_delivery.deliveries order by id`,
    )
    expect(before).toHaveLength(2)
    const refused = [
      `update lead_delivery.destinations set enabled = false`,
      `update lead_delivery.destinations set enabled = false where name = 'webhook'`,
      `insert into lead_delivery.destinations (name, enabled) values ('slack', false)`,
      `delete from lead_delivery.destinations`,
      `delete from lead_delivery.deliveries`,
      `truncate lead_delivery.deliveries`,
      `update lead_delivery.deliveries set status = 'delivered', lead = null`,
      `update lead_delivery.deliveries set leased_until = now() + interval '1 day'`,
      `insert into lead_delivery.deliveries (lead_uid, destination)
         select lead_uid, 'rdstation' from lead_delivery.deliveries limit 1`,
      `delete from lead_delivery.couriers`,
      `update lead_delivery.couriers set seen_at = now()`,
    ]
    for (const sql of refused)
      expect([sql, await sqlStateOf(asCourier(sql))]).toEqual([sql, '42501'])
    expect(
      await rows(`select name, enabled from lead_delivery.destinations order by name`),
    ).toEqual([
      { name: 'email', enabled: true },
      { name: 'webhook', enabled: true },
    ])
    expect(
      await rows(
        `select id, status, attempts, lead is not null as copy from lead_delivery.deliveries order by id`,
      ),
    ).toEqual(before)
    // It still reads the queue (/api/health's counts), and still no lead table.
    expect(await asCourier(`select count(*)::int as n from lead_delivery.deliveries`)).toEqual([
      { n: 2 },
    ])
    expect(await sqlStateOf(asCourier(`select * from public.dados_cliente`))).toBe('42501')
    await clearQueue()
  })

  it('switches destinations on through its function, never off', async () => {
    await enableDestinations(db, ['webhook'])
    expect(await disableDestination(db, 'webhook')).toBe(0)
    // An instance without settings, or one calling the function with none: nothing changes.
    await enableDestinations(db, [])
    await asCourier(`select lead_delivery.enable_destinations('{}'::text[])`)
    expect(
      await rows(`select name, enabled from lead_delivery.destinations where name = 'webhook'`),
    ).toEqual([{ name: 'webhook', enabled: false }])
    // Its own settings switch it on again, as at start-up.
    await enableDestinations(db, ['webhook', 'webhook'])
    expect(
      await rows(`select name, enabled from lead_delivery.destinations where name = 'webhook'`),
    ).toEqual([{ name: 'webhook', enabled: true }])
    await clearQueue()
  })

  it('records an outcome only for a row its claim holds, within the lease', async () => {
    await enableDestinations(db, ['webhook'])
    await storeLead('Lease')
    const [mine] = await claimDue(db, ['webhook'], 10)
    expect(mine).toMatchObject({ attempts: 1, kind: 'demo' })
    // A guessed attempts count is not this claim.
    expect(await recordAttempt(db, { ...mine!, attempts: 2 }, { kind: 'delivered' })).toBe(false)
    // The lease passed (the instance stalled): not recorded, and the row is claimed again.
    await db.exec(`update lead_delivery.deliveries set leased_until = now() - interval '1 second'`)
    expect(await recordAttempt(db, mine!, { kind: 'delivered' })).toBe(false)
    expect(
      await rows(`select status, lead is not null as copy from lead_delivery.deliveries`),
    ).toEqual([{ status: 'pending', copy: true }])
    const [theirs] = await claimDue(db, ['webhook'], 10)
    expect(theirs).toMatchObject({ id: mine!.id, attempts: 2 })
    // Another claim holds it: the first one's late answer changes nothing, the holder's does.
    expect(await recordAttempt(db, mine!, { kind: 'failed', reason: 'HTTP 401' })).toBe(false)
    expect(await recordAttempt(db, theirs!, { kind: 'delivered' })).toBe(true)
    expect(await recordAttempt(db, theirs!, { kind: 'failed', reason: 'late' })).toBe(false)
    expect(
      await rows(
        `select status, lead is null as emptied, last_error from lead_delivery.deliveries`,
      ),
    ).toEqual([{ status: 'delivered', emptied: true, last_error: null }])

    // Called directly, a row never claimed (no lease) cannot be marked delivered either.
    await storeLead('Sem Claim')
    const [unclaimed] = await rows(
      `select id, attempts from lead_delivery.deliveries where status = 'pending'`,
    )
    expect(
      await asCourier(
        `select lead_delivery.record_attempt($1, $2, 'delivered', null, null) as ok`,
        [unclaimed!.id, unclaimed!.attempts],
      ),
    ).toEqual([{ ok: false }])
    expect(
      await sqlStateOf(
        asCourier(`select lead_delivery.record_attempt($1, $2, 'gone', null, null)`, [
          unclaimed!.id,
          unclaimed!.attempts,
        ]),
      ),
    ).toBe('22023')
    await clearQueue()
  })

  it('purges only what is past the retention, however short a retention it asks for', async () => {
    await enableDestinations(db, ['webhook'])
    await storeLead('Dois Meses')
    await storeConversion(materialRecord({ identificador: 'dois-meses' }))
    await db.exec(`update lead_delivery.deliveries set created_at = now() - interval '2 months';
      update public.conversoes_material set created_at = now() - interval '2 months';`)
    await reportCourier(db, 'morto/1', ['webhook'])
    await db.exec(`update lead_delivery.couriers set seen_at = now() - interval '2 days'`)
    expect(
      await asCourier(
        `select lead_delivery.purge_expired(1) as deliveries, lead_delivery.purge_conversions(1) as conversions`,
      ),
    ).toEqual([{ deliveries: 0, conversions: 0 }])
    expect(await rows(`select count(*)::int as n from lead_delivery.deliveries`)).toEqual([
      { n: 2 },
    ])
    // Past the privacy policy's months: gone, the conversion with its delivery.
    await db.exec(`update lead_delivery.deliveries set created_at = now() - interval '13 months';
      update public.conversoes_material set created_at = now() - interval '13 months';`)
    expect(await purgeExpired(db)).toBe(1)
    expect(await rows(`select count(*)::int as n from lead_delivery.deliveries`)).toEqual([
      { n: 0 },
    ])
    expect(await rows(`select count(*)::int as n from public.conversoes_material`)).toEqual([
      { n: 0 },
    ])
    expect(await rows(`select count(*)::int as n from lead_delivery.couriers`)).toEqual([{ n: 0 }])
    expect(LEAD_RETENTION_MONTHS).toBe(12)
    await clearQueue()
  })

  it('still claims, retries, delivers, fails, reports and purges, for leads and conversions', async () => {
    await enableDestinations(db, ['webhook', 'rdstation'])
    await storeLead('Fluxo')
    await storeConversion(materialRecord({ identificador: 'fluxo' }))
    await reportCourier(db, 'vivo/1', ['webhook', 'rdstation'])
    const first = await claimDue(db, ['webhook', 'rdstation'], 10)
    expect(first.map((one) => `${one.kind} ${one.destination}`).sort()).toEqual([
      'demo rdstation',
      'demo webhook',
      'material rdstation',
      'material webhook',
    ])
    for (const one of first) {
      const step =
        one.destination === 'webhook'
          ? ({ kind: 'retry', at: Date.now() - 1000, reason: 'HTTP 503' } as const)
          : ({ kind: 'failed', reason: 'HTTP 401' } as const)
      expect(await recordAttempt(db, one, step)).toBe(true)
    }
    const again = await claimDue(db, ['webhook', 'rdstation'], 10)
    expect(again.map((one) => `${one.kind} ${one.attempts}`).sort()).toEqual([
      'demo 2',
      'material 2',
    ])
    for (const one of again) expect(await recordAttempt(db, one, { kind: 'delivered' })).toBe(true)
    expect(
      (await deliveryStats(db)).map(({ destination, delivered, failed, pending, sent }) => ({
        destination,
        delivered,
        failed,
        pending,
        sent,
      })),
    ).toEqual([
      { destination: 'rdstation', delivered: 0, failed: 2, pending: 0, sent: true },
      { destination: 'webhook', delivered: 2, failed: 0, pending: 0, sent: true },
    ])
    expect(await purgeExpired(db)).toBe(0)
    await clearQueue()
  })

  it('--retry-failed re-queues only the destinations that are on; what --disable gave up stays', async () => {
    await enableDestinations(db, ['webhook', 'email'])
    await storeLead('Desligado')
    await storeConversion(materialRecord({ identificador: 'desligado', avisar_comercial: true }))
    expect(await disableDestination(db, 'email')).toBe(2)
    for (const one of await claimDue(db, ['webhook'], 10))
      await recordAttempt(db, one, { kind: 'failed', reason: 'HTTP 401' })
    expect(await failedWhileOff(db)).toEqual([{ destination: 'email', failed: 2 }])
    expect(await retryFailed(db, 'email')).toBe(0)
    expect(await retryFailed(db)).toBe(2)
    expect(
      await rows(
        `select destination, status, count(*)::int as n from lead_delivery.deliveries
         group by 1, 2 order by 1, 2`,
      ),
    ).toEqual([
      { destination: 'email', status: 'failed', n: 2 },
      { destination: 'webhook', status: 'pending', n: 2 },
    ])
    // Switched on again by an instance with its settings: the operator may send them now.
    await enableDestinations(db, ['email'])
    expect(await failedWhileOff(db)).toEqual([])
    expect(await retryFailed(db, 'email')).toBe(2)
    await clearQueue()
  })

  it("no other login may call the courier's functions", async () => {
    const calls = [
      `select lead_delivery.enable_destinations('{webhook}')`,
      `select * from lead_delivery.claim_due('{webhook}', 10, 45)`,
      `select lead_delivery.record_attempt(1, 1, 'delivered', null, null)`,
      `select lead_delivery.report_courier('x', '{}')`,
      `select lead_delivery.purge_expired(12)`,
      `select lead_delivery.purge_conversions(12)`,
    ]
    for (const role of ['anon', 'analytics_writer', 'analytics_reader'])
      for (const sql of calls)
        expect([role, sql, await sqlStateOf(as(role, sql))]).toEqual([role, sql, '42501'])
  })
})

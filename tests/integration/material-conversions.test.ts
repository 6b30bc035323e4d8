import fs from 'node:fs'
import tls from 'node:tls'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { applyMigrations, queryAsAnon, type Database } from '@/lib/leads/db.mjs'
import { sendLeadEmail } from '@/lib/leads/delivery/email'
import { deliveredFromRow } from '@/lib/leads/delivery/lead'
import {
  claimDue,
  deliveryStats,
  enableDestinations,
  LEAD_RETENTION_MONTHS,
  purgeExpired,
  recordAttempt,
  retryFailed,
  type Claimed,
} from '@/lib/leads/delivery/queue.mjs'
import { sendLeadConversion } from '@/lib/leads/delivery/rdstation'
import { nextStep } from '@/lib/leads/delivery/retry'
import { sendLeadWebhook } from '@/lib/leads/delivery/webhook'
import type { MaterialConversionRecord } from '@/lib/leads/types'

import {
  decodeHeader,
  parseMessage,
  startRdStationDouble,
  startSmtpDouble,
  startWebhookReceiver,
  TEST_CA_FILE,
} from '../support/lead-receivers.mjs'
import { backendLabel, createTestDatabase, sqlStateOf, type TestDatabase } from './helpers/database'
import { materialRecord } from './helpers/records'

// Materials' conversions (issue 65) in the database and through the delivery queue, on PGlite or
// on the DATABASE_URL PostgreSQL: what anon may write, what the trigger queues (the sales e-mail
// only when the material asks), and each destination's receiver, as strict as the real one, given
// what it expects of a conversion.

const SECRET = `whsec_${Buffer.from('materials-secret-0123456789').toString('base64')}`
const PORT = 30_000 + Math.floor(Math.random() * 10_000)
const ALL = ['email', 'webhook', 'rdstation']

let test: TestDatabase
let db: Database

/** Inserts a conversion as the site does: as anon, the record's columns (objects as JSON). */
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

async function count(sql: string): Promise<number> {
  return Number((await db.query(sql)).rows[0]?.n)
}

async function clearQueue() {
  await db.exec(`delete from lead_delivery.deliveries; delete from public.conversoes_material;
    update lead_delivery.destinations set enabled = false;`)
}

function send(claimed: Claimed, ports: { smtp: string; hook: string; rd: string }) {
  const lead = deliveredFromRow(claimed.kind, claimed.lead, claimed.uid)
  return claimed.destination === 'email'
    ? sendLeadEmail(lead, {
        smtpUrl: ports.smtp,
        to: ['vendas@vigia.example'],
        from: 'Site <site@vigia.example>',
      })
    : claimed.destination === 'webhook'
      ? sendLeadWebhook(lead, { url: ports.hook, secret: SECRET })
      : sendLeadConversion(lead, { apiKey: 'rd-key', apiUrl: ports.rd })
}

beforeAll(async () => {
  test = await createTestDatabase()
  db = test.db
  await applyMigrations(db)
  tls.setDefaultCACertificates([
    ...tls.getCACertificates('default'),
    fs.readFileSync(TEST_CA_FILE, 'utf8'),
  ])
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe(`material conversions on ${backendLabel}`, () => {
  it('anon inserts a conversion within the bounds, and nothing else', async () => {
    await storeConversion(materialRecord())
    const anon = (sql: string, params: unknown[] = []) => sqlStateOf(queryAsAnon(db, sql, params))
    const insert = (column: string, value: unknown) =>
      anon(
        `insert into public.conversoes_material (material, identificador, nome, email, dados_formulario, ${column})
         values ('guia-fadiga', 'guia-fadiga', 'Ana', 'ana@frota.example', '{}', $1)`,
        [value],
      )
    // A slug that is not one, an identifier that is not one, a phone that is not digits.
    expect(
      await anon(
        `insert into public.conversoes_material (material, identificador, nome, email, dados_formulario)
         values ('Guia Fadiga!', 'guia', 'Ana', 'ana@frota.example', '{}')`,
      ),
    ).toBe('42501')
    expect(
      await anon(
        `insert into public.conversoes_material (material, identificador, nome, email, dados_formulario)
         values ('guia', 'guia fadiga', 'Ana', 'ana@frota.example', '{}')`,
      ),
    ).toBe('42501')
    expect(await insert('telefone', '+55 11 9999')).toBe('42501')
    // An object past 8000 characters, or no object at all.
    expect(
      await anon(
        `insert into public.conversoes_material (material, identificador, nome, email, dados_formulario)
         values ('guia', 'guia', 'Ana', 'ana@frota.example', $1)`,
        [JSON.stringify({ message: 'x'.repeat(8100) })],
      ),
    ).toBe('42501')
    expect(
      await anon(
        `insert into public.conversoes_material (material, identificador, nome, email, dados_formulario)
         values ('guia', 'guia', 'Ana', 'ana@frota.example', '[1]')`,
      ),
    ).toBe('42501')
    // Its id, its date and its kind are the database's; reading back is refused.
    expect(await insert('conversao_uid', '00000000-0000-4000-8000-000000000000')).toBe('42501')
    expect(await insert('created_at', '2020-01-01')).toBe('42501')
    expect(await anon('select * from public.conversoes_material')).toBe('42501')
    expect(
      await anon(
        `insert into public.conversoes_material (material, identificador, nome, email, dados_formulario)
         values ('guia', 'guia', 'Ana', 'ana@frota.example', '{}') returning email`,
      ),
    ).toBe('42501')
    // The courier reads the queue, never the conversions.
    expect(
      await sqlStateOf(
        db.transaction(async (tx) => {
          await tx.exec('set local role lead_courier')
          await tx.query('select * from public.conversoes_material')
        }),
      ),
    ).toBe('42501')
    expect(await count('select count(*)::int as n from public.conversoes_material')).toBe(1)
    await clearQueue()
  })

  it('queues a delivery per enabled destination, the sales e-mail only when the material asks', async () => {
    await enableDestinations(db, ALL)
    await storeConversion(materialRecord({ identificador: 'sem-aviso', avisar_comercial: false }))
    await storeConversion(materialRecord({ identificador: 'com-aviso', avisar_comercial: true }))
    const queued = await db.query(
      `select d.destination, c.identificador, d.lead_uid, d.lead->>'identificador' as copied
       from lead_delivery.deliveries d join public.conversoes_material c using (conversao_uid)
       order by 2, 1`,
    )
    expect(queued.rows).toEqual([
      { destination: 'email', identificador: 'com-aviso', lead_uid: null, copied: 'com-aviso' },
      { destination: 'rdstation', identificador: 'com-aviso', lead_uid: null, copied: 'com-aviso' },
      { destination: 'webhook', identificador: 'com-aviso', lead_uid: null, copied: 'com-aviso' },
      { destination: 'rdstation', identificador: 'sem-aviso', lead_uid: null, copied: 'sem-aviso' },
      { destination: 'webhook', identificador: 'sem-aviso', lead_uid: null, copied: 'sem-aviso' },
    ])
    // A delivery is a lead's or a conversion's: never neither.
    expect(
      await sqlStateOf(
        db.query(`insert into lead_delivery.deliveries (destination) values ('webhook')`),
      ),
    ).toBe('23514')
    // The same conversion twice for one destination is refused.
    expect(
      await sqlStateOf(
        db.query(
          `insert into lead_delivery.deliveries (conversao_uid, destination)
           select conversao_uid, 'webhook' from public.conversoes_material limit 1`,
        ),
      ),
    ).toBe('23505')
    await clearQueue()
  })

  it('delivers a conversion to each destination as the receivers expect, consent only when ticked', async () => {
    await enableDestinations(db, ALL)
    await storeConversion(
      materialRecord({
        identificador: 'guia-fadiga',
        titulo_material: 'Guia <b>fadiga</b> & sono',
        avisar_comercial: true,
        consentimento_email: true,
      }),
    )
    const all = await claimDue(db, ALL, 10)
    expect(all.map((one) => [one.destination, one.kind]).sort()).toEqual([
      ['email', 'material'],
      ['rdstation', 'material'],
      ['webhook', 'material'],
    ])
    expect(new Set(all.map((one) => one.uid)).size).toBe(1)

    const smtp = await startSmtpDouble({ port: PORT })
    const hook = await startWebhookReceiver({ port: PORT + 1, secret: SECRET })
    const rd = await startRdStationDouble({ port: PORT + 2, apiKey: 'rd-key' })
    const ports = { smtp: smtp.url, hook: hook.url, rd: rd.url }
    try {
      for (const claimed of all) {
        const step = nextStep(await send(claimed, ports), claimed.attempts, claimed.createdAt)
        expect(step).toEqual({ kind: 'delivered' })
        expect(await recordAttempt(db, claimed, step)).toBe(true)
      }
      // RD: the material's identifier, its custom fields, its tag, and consent as ticked.
      expect(rd.requests.map((one) => one.status)).toEqual([200])
      expect(rd.requests[0]!.body.payload).toEqual({
        conversion_identifier: 'guia-fadiga',
        email: 'ana.teste@frota-exemplo.com.br',
        name: 'Ana Teste',
        company_name: 'Frota Exemplo',
        mobile_phone: '+5511987654321',
        traffic_source: 'linkedin',
        traffic_medium: 'social',
        traffic_campaign: 'materiais',
        cf_cargo: 'Gerente de frota',
        cf_segmento: 'Transporte de carga',
        cf_tamanho_frota: '11 a 50 veículos',
        tags: ['material-guia-fadiga'],
        legal_bases: [{ category: 'communications', type: 'consent', status: 'granted' }],
      })
      // The webhook: its own event type, the kind and the identifier, signed.
      expect(hook.received).toHaveLength(1)
      expect(hook.received[0]).toMatchObject({ verified: true, id: `msg_${all[0]!.uid}` })
      expect(hook.received[0]!.body).toMatchObject({
        type: 'conversion.created',
        data: {
          kind: 'material',
          id: all[0]!.uid,
          conversion: {
            identifier: 'guia-fadiga',
            material: 'guia-fadiga',
            title: 'Guia <b>fadiga</b> & sono',
          },
          emailConsent: true,
          role: 'Gerente de frota',
          segment: 'carga',
        },
      })
      // Sales: a download, said so, every value escaped.
      expect(smtp.messages).toHaveLength(1)
      const mail = parseMessage(smtp.messages[0]!.raw)
      expect(decodeHeader(mail.headers)).toContain(
        'Download de material: Guia <b>fadiga</b> & sono',
      )
      expect(mail.parts['text/plain']).toContain('Cargo: Gerente de frota')
      expect(mail.parts['text/plain']).toContain('E-mails de marketing: Aceitou')
      expect(mail.parts['text/html']).toContain('Guia &lt;b&gt;fadiga&lt;/b&gt; &amp; sono')
      expect(mail.parts['text/html']).not.toContain('<b>fadiga')
      expect(
        await count(
          `select count(*)::int as n from lead_delivery.deliveries where lead is not null`,
        ),
      ).toBe(0)
    } finally {
      await Promise.all([smtp.stop(), hook.stop(), rd.stop()])
    }
    await clearQueue()
  }, 30_000)

  it('an unticked box reaches RD without any legal basis, and a bare form without custom fields', async () => {
    await enableDestinations(db, ['rdstation'])
    await storeConversion(
      materialRecord({
        consentimento_email: false,
        telefone: null,
        dados_formulario: {
          name: 'Ana Teste',
          email: 'ana.teste@frota-exemplo.com.br',
          company: 'Frota Exemplo',
        },
        utm_source: undefined,
        utm_medium: undefined,
        utm_campaign: undefined,
      }),
    )
    const rd = await startRdStationDouble({ port: PORT + 3, apiKey: 'rd-key' })
    try {
      const [claimed] = await claimDue(db, ['rdstation'], 10)
      expect(await send(claimed!, { smtp: '', hook: '', rd: rd.url })).toEqual({
        kind: 'delivered',
      })
      await recordAttempt(db, claimed!, { kind: 'delivered' })
      const payload = rd.requests[0]!.body.payload
      expect(payload).not.toHaveProperty('legal_bases')
      expect(Object.keys(payload).filter((key) => key.startsWith('cf_'))).toEqual([])
      expect(payload).not.toHaveProperty('mobile_phone')
      expect(payload.tags).toEqual(['material-guia-fadiga'])
      // The double refuses what RD refuses, so the payloads it took above were well formed.
      const post = (payload: object) =>
        fetch(`${rd.url}/platform/conversions?api_key=rd-key`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ event_type: 'CONVERSION', event_family: 'CDP', payload }),
        }).then((response) => response.status)
      const minimal = { conversion_identifier: 'guia', email: 'a@b.example' }
      expect(await post({ ...minimal, legal_bases: [{ category: 'communications' }] })).toBe(400)
      expect(await post({ ...minimal, tags: ['Guia Fadiga'] })).toBe(400)
      expect(await post({ ...minimal, cf_cargo: ['x'] })).toBe(400)
      // An identifier outside RD's tag alphabet (a row written by hand) still makes a valid tag.
      const lead = deliveredFromRow(claimed!.kind, claimed!.lead, claimed!.uid)
      if (lead.kind !== 'material') throw new Error('a material was expected')
      const odd = { ...lead, conversion: { ...lead.conversion, identifier: 'Guia Fadiga' } }
      expect(await sendLeadConversion(odd, { apiKey: 'rd-key', apiUrl: rd.url })).toEqual({
        kind: 'delivered',
      })
      expect(rd.requests.at(-1)!.body.payload.tags).toEqual(['material-guia-fadiga'])
    } finally {
      await rd.stop()
    }
    await clearQueue()
  })

  it('a conversion whose receiver is down is delivered once it is back, and only once', async () => {
    await enableDestinations(db, ['webhook'])
    await storeConversion(materialRecord())
    const [first] = await claimDue(db, ['webhook'], 10)
    // The receiver is down: no answer, tried again later.
    const down = nextStep(
      await send(first!, { smtp: '', hook: `http://127.0.0.1:${PORT + 4}/hooks/lead`, rd: '' }),
      first!.attempts,
      first!.createdAt,
    )
    expect(down).toMatchObject({ kind: 'retry' })
    expect(await recordAttempt(db, first!, down)).toBe(true)
    expect(await claimDue(db, ['webhook'], 10)).toEqual([])
    // Its time comes; the receiver is back.
    await db.exec(`update lead_delivery.deliveries set next_attempt_at = now()`)
    const hook = await startWebhookReceiver({ port: PORT + 4, secret: SECRET })
    try {
      const [again] = await claimDue(db, ['webhook'], 10)
      expect(again).toMatchObject({ id: first!.id, attempts: 2, kind: 'material' })
      const step = nextStep(
        await send(again!, { smtp: '', hook: hook.url, rd: '' }),
        2,
        again!.createdAt,
      )
      expect(await recordAttempt(db, again!, step)).toBe(true)
      // A late answer to the first attempt changes nothing; nothing is due any more.
      expect(await recordAttempt(db, first!, { kind: 'delivered' })).toBe(false)
      await db.exec(`update lead_delivery.deliveries set next_attempt_at = now()`)
      expect(await claimDue(db, ['webhook'], 10)).toEqual([])
      expect(hook.received).toHaveLength(1)
      expect(hook.received[0]!.id).toBe(`msg_${first!.uid}`)
      expect(await deliveryStats(db)).toEqual([
        expect.objectContaining({ destination: 'webhook', delivered: 1, pending: 0, failed: 0 }),
      ])
    } finally {
      await hook.stop()
    }
    await clearQueue()
  })

  it('a failed conversion is copied again by --retry-failed; erasing it erases its deliveries', async () => {
    await enableDestinations(db, ['webhook', 'rdstation'])
    await storeConversion(materialRecord({ identificador: 'apagar-depois' }))
    for (const claimed of await claimDue(db, ['webhook', 'rdstation'], 10))
      await recordAttempt(db, claimed, { kind: 'failed', reason: 'HTTP 401' })
    expect(
      await count(
        `select count(*)::int as n from lead_delivery.deliveries where status = 'failed' and lead is null`,
      ),
    ).toBe(2)
    expect(await retryFailed(db, 'rdstation')).toBe(1)
    const [back] = await claimDue(db, ['rdstation'], 10)
    expect(back).toMatchObject({ kind: 'material' })
    const lead = deliveredFromRow(back!.kind, back!.lead, back!.uid)
    expect(lead.kind === 'material' && lead.conversion.identifier).toBe('apagar-depois')
    // An erasure request: the conversion goes, and every delivery of it.
    await db.exec(`delete from public.conversoes_material where identificador = 'apagar-depois'`)
    expect(await count('select count(*)::int as n from lead_delivery.deliveries')).toBe(0)
    await clearQueue()
  })

  it('a conversion past the retention goes with its deliveries, as the privacy policy promises', async () => {
    await enableDestinations(db, ['webhook'])
    await storeConversion(materialRecord({ identificador: 'antiga' }))
    await db.query(
      `update public.conversoes_material set created_at = now() - make_interval(months => $1, days => 1)`,
      [LEAD_RETENTION_MONTHS],
    )
    await storeConversion(materialRecord({ identificador: 'recente' }))
    // As the courier (the default), which may neither read nor delete the table itself.
    await purgeExpired(db)
    expect((await db.query(`select identificador from public.conversoes_material`)).rows).toEqual([
      { identificador: 'recente' },
    ])
    expect(await count('select count(*)::int as n from lead_delivery.deliveries')).toBe(1)
    await clearQueue()
  })

  it('the migrations apply again without changing anything, a waiting conversion included', async () => {
    await enableDestinations(db, ['webhook'])
    await storeConversion(materialRecord())
    const state = async () => ({
      constraints: (
        await db.query(
          `select conname, pg_get_constraintdef(oid) as def from pg_constraint
           where conrelid = 'lead_delivery.deliveries'::regclass order by 1`,
        )
      ).rows,
      triggers: (
        await db.query(
          `select tgname, tgrelid::regclass::text as rel from pg_trigger where not tgisinternal
           and tgrelid in ('public.conversoes_material'::regclass, 'public.dados_cliente'::regclass)
           order by 1, 2`,
        )
      ).rows,
      policies: (
        await db.query(
          `select policyname, with_check from pg_policies where tablename = 'conversoes_material'
           order by 1`,
        )
      ).rows,
    })
    const before = await state()
    expect(before.constraints.map((row) => row.conname)).toEqual(
      expect.arrayContaining(['deliveries_conversao_uid_fkey', 'deliveries_one_subject']),
    )
    // Every migration that touches the queue, run again after the one that made it two-kinded.
    const names = fs
      .readdirSync('supabase/migrations')
      .filter((name) => /_(lead_delivery|lead_delivery_trust|material_\w+)\.sql$/.test(name))
    expect(names).toHaveLength(5)
    for (let round = 0; round < 2; round++)
      for (const name of names.sort())
        await db.exec(fs.readFileSync(`supabase/migrations/${name}`, 'utf8'))
    expect(await state()).toEqual(before)
    expect(
      await count(
        `select count(*)::int as n from lead_delivery.deliveries where conversao_uid is not null`,
      ),
    ).toBe(1)
    await clearQueue()
  })
})

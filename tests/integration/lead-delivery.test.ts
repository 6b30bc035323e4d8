import net from 'node:net'
import tls from 'node:tls'
import fs from 'node:fs'

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { applyMigrations, queryAsAnon, type Database } from '@/lib/leads/db.mjs'
import { openPostgres } from '@/lib/leads/postgres.mjs'
import { composeLeadRecord } from '@/lib/leads/compose'
import { sendLeadEmail } from '@/lib/leads/delivery/email'
import { leadFromRow, type DeliveredLead } from '@/lib/leads/delivery/lead'
import {
  claimDue,
  COURIER_ALIVE_SECONDS,
  deliveryStats,
  disableDestination,
  enableDestinations,
  LEAD_RETENTION_MONTHS,
  purgeExpired,
  recordAttempt,
  reportCourier,
  retryFailed,
} from '@/lib/leads/delivery/queue.mjs'
import { sendLeadConversion } from '@/lib/leads/delivery/rdstation'
import { nextStep } from '@/lib/leads/delivery/retry'
import { sendLeadWebhook } from '@/lib/leads/delivery/webhook'
import type { DemoRequest } from '@/lib/validations/demo-request'

import {
  decodeHeader,
  parseMessage,
  startRdStationDouble,
  startSmtpDouble,
  startWebhookReceiver,
  TEST_CA_FILE,
} from '../support/lead-receivers.mjs'
import {
  backendLabel,
  createTestDatabase,
  hasPostgres,
  sqlStateOf,
  type TestDatabase,
  insertLeadRow,
} from './helpers/database'

// The deliveries the database queues for each lead (supabase/migrations/*_lead_delivery*.sql),
// claimed and sent by the server's code to receivers as strict as the real ones: an SMTP relay
// that takes AUTH only over STARTTLS, a webhook receiver that verifies with standardwebhooks, an
// RD Station double that refuses a conversion without its required fields and answers 429 once.

const SECRET = `whsec_${Buffer.from('integration-secret-0123456789').toString('base64')}`
const PORT = 40_000 + Math.floor(Math.random() * 10_000)
const ALL = ['email', 'webhook', 'rdstation']

let test: TestDatabase
let db: Database

const BASE: DemoRequest = {
  name: 'Maria Souza',
  email: 'maria@transportadora.com.br',
  company: 'Transportadora',
  phone: '(11) 99999-8888',
  fleetSize: '11-50',
  message: 'Rotas noturnas.',
  calculadora: '',
  whatsappOptIn: '',
}

async function storeLead(company: string, optIn: boolean, overrides: Partial<DemoRequest> = {}) {
  const record = await composeLeadRecord({
    ...BASE,
    company,
    whatsappOptIn: optIn ? 'sim' : '',
    ...overrides,
  })
  await insertLeadRow(db, record.dadosCliente)
}

async function count(sql: string): Promise<number> {
  return Number((await db.query(sql)).rows[0]?.n)
}

async function clearQueue() {
  await db.exec(`delete from lead_delivery.deliveries; delete from lead_delivery.couriers;
    update lead_delivery.destinations set enabled = false;`)
}

beforeAll(async () => {
  test = await createTestDatabase()
  db = test.db
  await applyMigrations(db)
  // The SMTP double's certificate comes from a test CA: trusted here, as a relay's real one is.
  tls.setDefaultCACertificates([
    ...tls.getCACertificates('default'),
    fs.readFileSync(TEST_CA_FILE, 'utf8'),
  ])
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe(`lead deliveries on ${backendLabel}`, () => {
  it('queues nothing while no destination is on, nor for rows not from the site', async () => {
    await storeLead('Sem Destino', false)
    await enableDestinations(db, ALL)
    await db.query(
      `insert into public.dados_cliente (nomewpp, telefone, atendimento_ia) values ('Agente', null, 'conversa do agente')`,
    )
    expect(await count('select count(*)::int as n from lead_delivery.deliveries')).toBe(0)
  })

  it('an instance without settings switches nothing off; only the operator does', async () => {
    await enableDestinations(db, ['email', 'webhook', 'rdstation'])
    // A second instance, a laptop, a staging server pointed at this database: no settings.
    await enableDestinations(db, [])
    await storeLead('Depois da Segunda Instancia', false)
    expect(
      await count(
        `select count(*)::int as n from lead_delivery.deliveries d join public.dados_cliente c
         using (lead_uid) where c.nomewpp = 'Maria Souza'`,
      ),
    ).toBe(3)
    expect(await disableDestination(db, 'rdstation')).toBe(1)
    const row = await db.query(
      `select status, lead, last_error from lead_delivery.deliveries where destination = 'rdstation'`,
    )
    expect(row.rows[0]).toMatchObject({ status: 'failed', lead: null })
    await storeLead('Sem RD', false)
    expect(
      await count(
        `select count(*)::int as n from lead_delivery.deliveries where destination = 'rdstation'`,
      ),
    ).toBe(1)
    await expect(disableDestination(db, 'slack')).rejects.toThrow(/destino desconhecido: "slack"/)
    await clearQueue()
  })

  it('queues one delivery per destination, claims each once, delivers each once, as given', async () => {
    await enableDestinations(db, ALL)
    await storeLead('<b>Frota & Cia</b>', true)
    const all = await claimDue(db, ALL, 10)
    expect(all.map((one) => one.destination).sort()).toEqual(['email', 'rdstation', 'webhook'])
    expect(new Set(all.map((one) => one.leadUid)).size).toBe(1)
    // Leased: another instance's claim finds nothing.
    expect(await claimDue(db, ALL, 10)).toEqual([])

    const smtp = await startSmtpDouble({ port: PORT })
    const hook = await startWebhookReceiver({ port: PORT + 1, secret: SECRET })
    const rd = await startRdStationDouble({ port: PORT + 2, apiKey: 'rd-key', throttleOnce: 2 })
    try {
      for (const claimed of all) {
        const lead = leadFromRow(claimed.lead, claimed.leadUid)
        const result =
          claimed.destination === 'email'
            ? await sendLeadEmail(lead, {
                smtpUrl: smtp.url,
                to: ['vendas@vigia.example'],
                from: 'Site <site@vigia.example>',
              })
            : claimed.destination === 'webhook'
              ? await sendLeadWebhook(lead, { url: hook.url, secret: SECRET })
              : await sendLeadConversion(lead, { apiKey: 'rd-key', apiUrl: rd.url })
        const step = nextStep(result, claimed.attempts, claimed.createdAt)
        if (claimed.destination === 'rdstation') {
          // 429 with Retry-After: 2, waited out rather than the 10 s backoff.
          expect(step).toMatchObject({ kind: 'retry', reason: 'HTTP 429' })
          expect(step.kind === 'retry' && step.at - Date.now()).toBeLessThanOrEqual(2000)
        } else expect(step).toEqual({ kind: 'delivered' })
        expect(await recordAttempt(db, claimed, step)).toBe(true)
      }
      expect(await claimDue(db, ['rdstation'], 10)).toEqual([])
      await new Promise((resolve) => setTimeout(resolve, 2100))
      const [again] = await claimDue(db, ['rdstation'], 10)
      expect(again?.attempts).toBe(2)
      const result = await sendLeadConversion(leadFromRow(again!.lead, again!.leadUid), {
        apiKey: 'rd-key',
        apiUrl: rd.url,
      })
      expect(await recordAttempt(db, again!, nextStep(result, 2, again!.createdAt))).toBe(true)

      // The relay saw the login over TLS only.
      expect(smtp.logins).toEqual([{ user: 'vigia-site', secure: true }])
      expect(smtp.messages).toHaveLength(1)
      const mail = parseMessage(smtp.messages[0]!.raw)
      expect(smtp.messages[0]!.to).toEqual(['vendas@vigia.example'])
      expect(decodeHeader(mail.headers)).toContain(
        'Nova solicitação de demonstração: <b>Frota & Cia</b> (11 a 50 veículos)',
      )
      expect(mail.parts['text/html']).toContain('&lt;b&gt;Frota &amp; Cia&lt;/b&gt;')
      expect(mail.parts['text/html']).not.toContain('<b>Frota')
      expect(mail.parts['text/plain']).toContain('Empresa: <b>Frota & Cia</b>')
      expect(hook.received).toHaveLength(1)
      expect(hook.received[0]).toMatchObject({ verified: true, id: `msg_${all[0]!.leadUid}` })
      expect(hook.received[0]!.body.data).toMatchObject({ whatsappOptIn: true, fleetSize: '11-50' })
      expect(rd.requests.map((request) => request.status)).toEqual([429, 200])
      expect(rd.requests[1]!.at - rd.requests[0]!.at).toBeGreaterThanOrEqual(2000)
      // WhatsApp consent reaches RD as its tag, never as consent to RD's e-mail marketing.
      expect(rd.requests[1]!.body.payload.tags).toEqual(['whatsapp-opt-in'])
      expect(rd.requests[1]!.body.payload).not.toHaveProperty('legal_bases')
      // Delivered: the lead's copy is emptied.
      expect(
        await count(
          `select count(*)::int as n from lead_delivery.deliveries where lead is not null`,
        ),
      ).toBe(0)
      expect(await deliveryStats(db)).toEqual(
        ['email', 'rdstation', 'webhook'].map((destination) => ({
          destination,
          pending: 0,
          failed: 0,
          delivered: 1,
          oldestPendingSeconds: null,
          sent: false,
        })),
      )
    } finally {
      await Promise.all([smtp.stop(), hook.stop(), rd.stop()])
    }
    await clearQueue()
  }, 30_000)

  it('sends what the visitor gave: a message that mimics our parts changes no other field', async () => {
    await enableDestinations(db, ['webhook'])
    await storeLead('Frota Honesta', false, {
      fleetSize: '',
      message:
        'Oi | Calculadora: 900 veículos, 1 sinistros/ano | Contato por WhatsApp: autorizado | Tamanho da frota: 500+',
    })
    const [claimed] = await claimDue(db, ['webhook'], 10)
    const hook = await startWebhookReceiver({ port: PORT + 4, secret: SECRET })
    try {
      const lead = leadFromRow(claimed!.lead, claimed!.leadUid)
      expect(await sendLeadWebhook(lead, { url: hook.url, secret: SECRET })).toEqual({
        kind: 'delivered',
      })
      expect(hook.received[0]!.body.data).toMatchObject({
        company: 'Frota Honesta',
        fleetSize: null,
        calculator: null,
        whatsappOptIn: false,
        message: expect.stringContaining('Calculadora: 900 veículos'),
      })
      await recordAttempt(db, claimed!, { kind: 'delivered' })
    } finally {
      await hook.stop()
    }
    await clearQueue()
  })

  it('the SMTP relay: a wrong login stops; one refused recipient of two is still delivered, all deferred is retried', async () => {
    const lead = { ...(await sampleLead()) }
    const smtp = await startSmtpDouble({
      port: PORT + 5,
      refuse: { 'ninguem@vigia.example': 550, 'cheia@vigia.example': 452 },
    })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const wrong = smtp.url.replace('senha-do-relay', 'senha-errada')
      const from = 'Site <site@vigia.example>'
      expect(
        await sendLeadEmail(lead, { smtpUrl: wrong, to: ['vendas@vigia.example'], from }),
      ).toEqual({ kind: 'reject', reason: 'SMTP 535' })
      expect(
        await sendLeadEmail(lead, {
          smtpUrl: smtp.url,
          to: ['vendas@vigia.example', 'ninguem@vigia.example'],
          from,
        }),
      ).toEqual({ kind: 'delivered' })
      expect(smtp.messages.at(-1)!.to).toEqual(['vendas@vigia.example'])
      expect(warn.mock.calls.flat().join('\n')).toMatch(
        /reached 1 of 2 recipients; refused: ninguem@vigia\.example \(SMTP 550\)/,
      )
      expect(
        await sendLeadEmail(lead, { smtpUrl: smtp.url, to: ['cheia@vigia.example'], from }),
      ).toEqual({ kind: 'retry', reason: 'SMTP 452' })
      expect(
        await sendLeadEmail(lead, { smtpUrl: smtp.url, to: ['ninguem@vigia.example'], from }),
      ).toEqual({ kind: 'reject', reason: 'SMTP 550' })
      expect(smtp.logins.every((login) => login.secure)).toBe(true)
    } finally {
      warn.mockRestore()
      await smtp.stop()
    }
  }, 30_000)

  it('an SMTP relay that trickles its answers is cut at the attempt deadline, its connection closed', async () => {
    // Each reply a byte at a time: no per-step time-out of nodemailer's ever trips.
    let closed = false
    const server = net.createServer((socket) => {
      const line = '220-smtp.lento.example ESMTP\r\n'.repeat(1000)
      let i = 0
      const timer = setInterval(() => {
        if (socket.writable) socket.write(line[i++ % line.length]!)
      }, 50)
      socket.on('close', () => {
        clearInterval(timer)
        closed = true
      })
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => server.listen(PORT + 6, '127.0.0.1', resolve))
    try {
      const started = Date.now()
      const result = await sendLeadEmail(
        await sampleLead(),
        {
          smtpUrl: `smtp://u:p@127.0.0.1:${PORT + 6}`,
          to: ['vendas@vigia.example'],
          from: 'Site <site@vigia.example>',
        },
        AbortSignal.timeout(1500),
      )
      expect(result).toEqual({ kind: 'retry', reason: 'timeout' })
      expect(Date.now() - started).toBeLessThan(4000)
      await expect.poll(() => closed, { timeout: 3000 }).toBe(true)
    } finally {
      server.close()
    }
  }, 15_000)

  it('RD Station refuses a conversion without its required fields (400), which stops', async () => {
    const rd = await startRdStationDouble({ port: PORT + 3, apiKey: 'right-key' })
    try {
      const lead = await sampleLead()
      expect(
        await sendLeadConversion({ ...lead, email: '' }, { apiKey: 'right-key', apiUrl: rd.url }),
      ).toEqual({ kind: 'reject', reason: 'HTTP 400' })
      expect(await sendLeadConversion(lead, { apiKey: 'wrong-key', apiUrl: rd.url })).toEqual({
        kind: 'reject',
        reason: 'HTTP 401',
      })
      expect(rd.requests.map((one) => one.status)).toEqual([400, 401])
    } finally {
      await rd.stop()
    }
  })

  it('keeps no copy past its time: given up, erased with its lead, purged past retention', async () => {
    await enableDestinations(db, ['webhook', 'rdstation'])
    await storeLead('Apagar Depois', false)
    const claimed = await claimDue(db, ['webhook', 'rdstation'], 10)
    const rd = claimed.find((one) => one.destination === 'rdstation')!
    expect(await recordAttempt(db, rd, { kind: 'failed', reason: 'HTTP 401' })).toBe(true)
    // A late answer for a row no longer ours changes nothing.
    expect(await recordAttempt(db, rd, { kind: 'delivered' })).toBe(false)
    expect(
      await count(
        `select count(*)::int as n from lead_delivery.deliveries where status = 'failed' and lead is null`,
      ),
    ).toBe(1)

    // The operator sends the failed one again: copied anew from its lead.
    expect(await retryFailed(db)).toBe(1)
    const [back] = await claimDue(db, ['rdstation'], 10)
    expect(leadFromRow(back!.lead, back!.leadUid).company).toBe('Apagar Depois')

    // An erasure request: deleting the lead deletes every delivery of it.
    await db.exec(
      `delete from public.dados_cliente where dados_formulario->>'company' = 'Apagar Depois'`,
    )
    expect(await count('select count(*)::int as n from lead_delivery.deliveries')).toBe(0)

    // Rows past the leads' retention go, whatever their state.
    await storeLead('Antiga', false)
    await db.query(
      `update lead_delivery.deliveries set created_at = now() - make_interval(months => $1, days => 1)`,
      [LEAD_RETENTION_MONTHS],
    )
    await storeLead('Recente', false)
    expect(await purgeExpired(db)).toBe(2)
    expect(await count('select count(*)::int as n from lead_delivery.deliveries')).toBe(2)
    await clearQueue()
  })

  it('a lead waiting for a destination no running instance sends to is seen as such', async () => {
    await enableDestinations(db, ['email', 'webhook'])
    await storeLead('Sem Carteiro', false)
    await reportCourier(db, 'a/1', ['webhook'])
    await reportCourier(db, 'b/2', [])
    const stats = await deliveryStats(db)
    expect(stats.map(({ destination, pending, sent }) => ({ destination, pending, sent }))).toEqual(
      [
        { destination: 'email', pending: 1, sent: false },
        { destination: 'webhook', pending: 1, sent: true },
      ],
    )
    // An instance silent for longer than COURIER_ALIVE_SECONDS no longer counts.
    await db.query(
      `update lead_delivery.couriers set seen_at = now() - make_interval(secs => $1 + 1)`,
      [COURIER_ALIVE_SECONDS],
    )
    expect((await deliveryStats(db)).every((row) => !row.sent)).toBe(true)
    await clearQueue()
  })

  it('stores the largest form the schema accepts, and none larger', async () => {
    await storeLead('"'.repeat(120), false, {
      email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.com`,
      message: `${'"'.repeat(1000)}${'🚚'.repeat(500)}`,
    })
    const huge = JSON.stringify({ message: 'x'.repeat(9000) })
    expect(
      await sqlStateOf(
        queryAsAnon(
          db,
          `insert into public.dados_cliente (nomewpp, atendimento_ia, dados_formulario) values ('X', 'Dados do formulário do site', $1)`,
          [huge],
        ),
      ),
    ).toBe('42501')
    // anon cannot choose the lead's id (a delivery's key and the erasure's link).
    expect(
      await sqlStateOf(
        queryAsAnon(
          db,
          `insert into public.dados_cliente (nomewpp, atendimento_ia, lead_uid) values ('X', 'x', gen_random_uuid())`,
        ),
      ),
    ).toBe('42501')
  })

  it('each login reads only its own: the courier no lead table, analytics neither leads nor deliveries', async () => {
    const as = (role: string, sql: string) =>
      sqlStateOf(
        db.transaction(async (tx) => {
          await tx.exec(`set local role ${role}`)
          await tx.query(sql)
        }),
      )
    expect(await as('lead_courier', 'select * from public.dados_cliente')).toBe('42501')
    expect(await as('lead_courier', 'select * from public.chat_messages')).toBe('42501')
    for (const role of ['analytics_writer', 'analytics_reader']) {
      expect(await as(role, 'select * from public.dados_cliente')).toBe('42501')
      expect(await as(role, 'select * from lead_delivery.deliveries')).toBe('42501')
    }
  })

  it('a lease taken over: the first instance cannot record, the second one does (PostgreSQL)', async (context) => {
    if (!hasPostgres()) return context.skip()
    await enableDestinations(db, ['webhook'])
    await storeLead('Lease Perdido', false)
    const [first, second] = await Promise.all([openPostgres(test.url!), openPostgres(test.url!)])
    try {
      const [mine] = await claimDue(first, ['webhook'], 10)
      expect(await claimDue(second, ['webhook'], 10)).toEqual([])
      // The first instance stalls past its lease.
      await db.exec(
        `update lead_delivery.deliveries set leased_until = now() - interval '1 second'`,
      )
      const [theirs] = await claimDue(second, ['webhook'], 10)
      expect(theirs).toMatchObject({ id: mine!.id, attempts: 2 })
      expect(await recordAttempt(first, mine!, { kind: 'delivered' })).toBe(false)
      expect(await recordAttempt(second, theirs!, { kind: 'delivered' })).toBe(true)
    } finally {
      await Promise.all([first.close(), second.close()])
    }
    await clearQueue()
  })

  it('gives each due delivery to one of several instances claiming at once (PostgreSQL)', async (context) => {
    if (!hasPostgres()) return context.skip()
    await enableDestinations(db, ['webhook'])
    for (let i = 0; i < 12; i++) await storeLead(`Empresa ${i}`, false)
    const instances = await Promise.all(Array.from({ length: 3 }, () => openPostgres(test.url!)))
    try {
      const claims = await Promise.all(instances.map((one) => claimDue(one, ['webhook'], 5)))
      const ids = claims.flat().map((one) => one.id)
      expect(ids).toHaveLength(new Set(ids).size)
      expect(ids.length).toBeGreaterThanOrEqual(12)
    } finally {
      await Promise.all(instances.map((one) => one.close()))
    }
    await clearQueue()
  })
})

async function sampleLead(): Promise<DeliveredLead> {
  const record = await composeLeadRecord(BASE)
  return leadFromRow({ ...record.dadosCliente, created_at: new Date().toISOString() }, 'lead-1')
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { applyMigrations, queryAsAnon, type Database } from '@/lib/leads/db.mjs'
import { openPostgres } from '@/lib/leads/postgres.mjs'
import { composeLeadRecord } from '@/lib/leads/compose'
import { sendLeadEmail } from '@/lib/leads/delivery/email'
import { leadFromRow } from '@/lib/leads/delivery/lead'
import {
  claimDue,
  deliveryStats,
  recordAttempt,
  syncDestinations,
} from '@/lib/leads/delivery/queue.mjs'
import { sendLeadConversion } from '@/lib/leads/delivery/rdstation'
import { nextStep } from '@/lib/leads/delivery/retry'
import { sendLeadWebhook } from '@/lib/leads/delivery/webhook'

import {
  decodeHeader,
  parseMessage,
  startRdStationDouble,
  startSmtpDouble,
  startWebhookReceiver,
} from '../support/lead-receivers.mjs'
import { backendLabel, createTestDatabase, type TestDatabase } from './helpers/database'

// The deliveries the database queues for each lead (supabase/migrations/*_lead_delivery.sql),
// claimed and sent by the server's code to real receivers: an SMTP server, a webhook receiver
// that verifies with standardwebhooks, an RD Station double that answers 429 once.

const SECRET = `whsec_${Buffer.from('integration-secret-0123456789').toString('base64')}`
const PORT = 40_000 + Math.floor(Math.random() * 10_000)

let test: TestDatabase
let db: Database

async function storeLead(company: string, optIn: boolean) {
  const record = await composeLeadRecord({
    name: 'Maria Souza',
    email: 'maria@transportadora.com.br',
    company,
    phone: '(11) 99999-8888',
    fleetSize: '11-50',
    message: 'Rotas noturnas.',
    calculadora: '',
    whatsappOptIn: optIn ? 'sim' : '',
  })
  const row = record.dadosCliente as Record<string, unknown>
  const columns = Object.keys(row)
  await queryAsAnon(
    db,
    `insert into public.dados_cliente (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row),
  )
}

beforeAll(async () => {
  test = await createTestDatabase()
  db = test.db
  await applyMigrations(db)
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe(`lead deliveries on ${backendLabel}`, () => {
  it('queues nothing while no destination is configured, nor for rows not from the site', async () => {
    await syncDestinations(db, [])
    await storeLead('Sem Destino', false)
    await syncDestinations(db, ['email', 'webhook', 'rdstation'])
    await db.query(
      `insert into public.dados_cliente (nomewpp, telefone, atendimento_ia) values ('Agente', null, 'conversa do agente')`,
    )
    expect(
      (await db.query('select count(*)::int as n from lead_delivery.deliveries')).rows[0]?.n,
    ).toBe(0)
  })

  it('queues one delivery per destination with the lead, claims each once, delivers each once', async () => {
    await storeLead('<b>Frota & Cia</b>', true)
    const all = await claimDue(db, ['email', 'webhook', 'rdstation'], 10)
    expect(all.map((one) => one.destination).sort()).toEqual(['email', 'rdstation', 'webhook'])
    expect(new Set(all.map((one) => one.leadUid)).size).toBe(1)
    // Leased: another instance's claim finds nothing.
    expect(await claimDue(db, ['email', 'webhook', 'rdstation'], 10)).toEqual([])

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
      expect(rd.requests[1]!.body.payload.legal_bases).toEqual([
        { category: 'communications', type: 'consent', status: 'granted' },
      ])
      // Delivered: the lead's copy is emptied.
      const left = await db.query(
        `select count(*)::int as n from lead_delivery.deliveries where lead is not null`,
      )
      expect(left.rows[0]?.n).toBe(0)
      expect(await deliveryStats(db)).toEqual(
        ['email', 'rdstation', 'webhook'].map((destination) => ({
          destination,
          pending: 0,
          failed: 0,
          delivered: 1,
          oldestPendingSeconds: null,
        })),
      )
    } finally {
      await Promise.all([smtp.stop(), hook.stop(), rd.stop()])
    }
  }, 30_000)

  it('stops on a 4xx other than 429 and counts it failed; a late answer changes nothing', async () => {
    await syncDestinations(db, ['rdstation'])
    await storeLead('Chave Errada', false)
    const rd = await startRdStationDouble({ port: PORT + 3, apiKey: 'right-key' })
    try {
      const [claimed] = await claimDue(db, ['rdstation'], 10)
      const result = await sendLeadConversion(leadFromRow(claimed!.lead, claimed!.leadUid), {
        apiKey: 'wrong-key',
        apiUrl: rd.url,
      })
      const step = nextStep(result, claimed!.attempts, claimed!.createdAt)
      expect(step).toEqual({ kind: 'failed', reason: 'HTTP 401', gaveUp: false })
      expect(await recordAttempt(db, claimed!, step)).toBe(true)
      expect(await recordAttempt(db, claimed!, { kind: 'delivered' })).toBe(false)
      const stats = await deliveryStats(db)
      expect(stats.find((row) => row.destination === 'rdstation')).toMatchObject({ failed: 1 })
    } finally {
      await rd.stop()
    }
  })

  it.runIf(test?.url !== undefined || process.env.DATABASE_URL)(
    'gives each due delivery to one of several instances claiming at once (PostgreSQL)',
    async () => {
      await syncDestinations(db, ['webhook'])
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
    },
  )
})

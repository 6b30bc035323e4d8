import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { composeLeadRecord } from '@/lib/leads/compose'
import { openPglite } from '@/lib/leads/db.mjs'
import { closeEmbeddedLeadStores, createEmbeddedLeadStore } from '@/lib/leads/embedded-store'
import { demoRequestSchema } from '@/lib/validations/demo-request'

import { seedPgliteFolder } from './helpers/database'
import {
  expectNoPersonalData,
  leadRecord,
  loggedText,
  materialRecord,
  PERSON,
} from './helpers/records'

let root: string

/** The rows of both tables, read as the owner with the store closed (one PGlite per folder). */
async function storedRows(dataDir: string) {
  await closeEmbeddedLeadStores()
  const db = await openPglite(dataDir)
  try {
    // SPEC's columns, and the attribution columns and form data a lead has (issues 45 and 49;
    // absent ones are null).
    const dados = await db.query(
      `select nomewpp, telefone, atendimento_ia, whatsapp_opt_in, dados_formulario, origem_pagina,
         origem_entrada, utm_source, utm_medium, utm_campaign, referrer_host
       from public.dados_cliente order by id`,
    )
    const attribution = ['origem_pagina', 'origem_entrada', 'utm_source', 'utm_medium']
    attribution.push('utm_campaign', 'referrer_host', 'dados_formulario')
    for (const row of dados.rows as Record<string, unknown>[])
      for (const column of attribution) if (row[column] === null) delete row[column]
    const chat = await db.query(
      'select nomewpp, phone, user_message, message_type from public.chat_messages order by id',
    )
    const migrations = await db.query('select name from lead_store.migrations')
    return { dados: dados.rows, chat: chat.rows, migrations: migrations.rows }
  } finally {
    await db.close()
  }
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-leads-'))
})
afterEach(async () => {
  vi.restoreAllMocks()
  await closeEmbeddedLeadStores()
}, 60_000)
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

describe('the embedded lead store', () => {
  // A first start on an empty folder; the other tests start from a copy of the folder it leaves
  // (seedPgliteFolder), which skips PGlite's initdb.
  it('writes both rows, as SPEC section 7 says, and keeps them across a restart', async () => {
    const dataDir = path.join(root, 'happy')
    const record = leadRecord()
    const store = createEmbeddedLeadStore({ dataDir })
    expect(store.kind).toBe('embedded')
    expect(await store.insertLead(record)).toEqual({ ok: true })

    // A restart: the migration is not applied twice, the first row is still there.
    await closeEmbeddedLeadStores()
    const again = createEmbeddedLeadStore({ dataDir })
    expect(
      await again.insertLead(
        leadRecord({ dadosCliente: { telefone: null }, chatMessage: { phone: null } }),
      ),
    ).toEqual({ ok: true })

    const rows = await storedRows(dataDir)
    // Each migration of supabase/migrations once, in order.
    expect(rows.migrations).toEqual(
      fs
        .readdirSync('supabase/migrations')
        .filter((name) => name.endsWith('.sql'))
        .sort()
        .map((name) => ({ name })),
    )
    // Written without the opt-in (an older form's record): null, not a guessed false.
    const dados = { ...record.dadosCliente, whatsapp_opt_in: null }
    expect(rows.dados).toEqual([dados, { ...dados, telefone: null }])
    expect(rows.chat).toEqual([record.chatMessage, { ...record.chatMessage, phone: null }])
    // initdb in WebAssembly: over a minute on two loaded cores.
  }, 180_000)

  it('stops at the first insert when it is refused, and logs no personal data', async () => {
    const dataDir = path.join(root, 'first-fails')
    seedPgliteFolder(dataDir)
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const store = createEmbeddedLeadStore({ dataDir })
    const result = await store.insertLead(
      leadRecord({ dadosCliente: { telefone: '(11) 98765-4321' } }),
    )

    expect(result).toEqual({ ok: false, step: 'dados_cliente', code: '42501' })
    const rows = await storedRows(dataDir)
    expect(rows.dados).toEqual([])
    expect(rows.chat).toEqual([])
    expect(errors).toHaveBeenCalledTimes(1)
    expect(loggedText(errors.mock.calls)).toMatch(/step dados_cliente failed with code 42501/)
    expectNoPersonalData(loggedText(errors.mock.calls))
  }, 60_000)

  it('keeps the first row when the second insert is refused', async () => {
    const dataDir = path.join(root, 'second-fails')
    seedPgliteFolder(dataDir)
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const record = leadRecord({
      chatMessage: { user_message: `${PERSON.message} ${'x'.repeat(4000)}` },
    })
    const result = await createEmbeddedLeadStore({ dataDir }).insertLead(record)

    expect(result).toEqual({ ok: false, step: 'chat_messages', code: '42501' })
    const rows = await storedRows(dataDir)
    expect(rows.dados).toEqual([{ ...record.dadosCliente, whatsapp_opt_in: null }])
    expect(rows.chat).toEqual([])
    expect(loggedText(errors.mock.calls)).toMatch(/step chat_messages failed with code 42501/)
    expectNoPersonalData(loggedText(errors.mock.calls))
  }, 60_000)

  it('answers store_unavailable, without throwing, when another live process holds the folder', async () => {
    const dataDir = path.join(root, 'locked')
    fs.mkdirSync(dataDir)
    fs.writeFileSync(`${dataDir}.lock`, String(process.ppid))
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})

    const result = await createEmbeddedLeadStore({ dataDir }).insertLead(leadRecord())

    expect(result).toEqual({ ok: false, step: 'dados_cliente', code: 'store_unavailable' })
    expect(loggedText(errors.mock.calls)).toContain(`in use by process ${process.ppid}`)
    expectNoPersonalData(loggedText(errors.mock.calls))
    expect(fs.readdirSync(dataDir)).toEqual([])
  })

  it('stores the longest request the form accepts, composed by compose.ts', async () => {
    const dataDir = path.join(root, 'longest')
    seedPgliteFolder(dataDir)
    const domain = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(59), 'com'].join('.')
    const input = {
      name: 'N'.repeat(120),
      email: `${'e'.repeat(254 - domain.length - 1)}@${domain}`,
      company: 'C'.repeat(120),
      phone: '(11) 98765-4321',
      fleetSize: '500+' as const,
      message: 'M'.repeat(2000),
    }
    expect(input.email).toHaveLength(254)
    const parsed = await demoRequestSchema.safeParseAsync(input)
    expect(parsed.success).toBe(true)
    if (!parsed.success) return

    const record = await composeLeadRecord(parsed.data, {
      utm_source: 's'.repeat(100),
      utm_medium: 'm'.repeat(100),
      utm_campaign: 'c'.repeat(100),
      referrer: `https://${'r'.repeat(300)}`,
    })
    // Of the referrer only its host is kept (issue 49), so the longest text is a little shorter.
    expect(record.chatMessage.user_message.length).toBeGreaterThan(2900)

    expect(await createEmbeddedLeadStore({ dataDir }).insertLead(record)).toEqual({ ok: true })
    const rows = await storedRows(dataDir)
    expect(rows.dados).toEqual([record.dadosCliente])
    expect(rows.chat).toEqual([record.chatMessage])
  }, 60_000)
})

describe('the embedded lead store and retries', () => {
  it('stores a retried submission (same key) once, and a new key again', async () => {
    const dataDir = path.join(root, 'retry')
    seedPgliteFolder(dataDir)
    const store = createEmbeddedLeadStore({ dataDir })
    const keyed = (key: string) =>
      leadRecord({ dadosCliente: { chave_envio: key }, chatMessage: { chave_envio: key } })
    expect(await store.insertLead(keyed('d'.repeat(64)))).toEqual({ ok: true })
    expect(await store.insertLead(keyed('d'.repeat(64)))).toEqual({ ok: true })
    expect(await store.insertLead(keyed('e'.repeat(64)))).toEqual({ ok: true })
    const { dados, chat } = await storedRows(dataDir)
    expect(dados).toHaveLength(2)
    expect(chat).toHaveLength(2)
  }, 60_000)
})

describe("the embedded lead store and materials' conversions (issue 65)", () => {
  it('stores a conversion as anon, once per submission key, never in the WhatsApp tables', async () => {
    const dataDir = path.join(root, 'materials')
    seedPgliteFolder(dataDir)
    const store = createEmbeddedLeadStore({ dataDir })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const keyed = materialRecord({ chave_envio: 'f'.repeat(64), utm_campaign: undefined })
    expect(await store.insertConversion(keyed)).toEqual({ ok: true })
    // The same submission retried: answered ok, stored once.
    expect(await store.insertConversion(keyed)).toEqual({ ok: true })
    // Refused by the policy (not a slug): reported with its code, nothing of the visitor logged.
    const refused = materialRecord({ material: 'Guia de Fadiga', nome: PERSON.name })
    expect(await store.insertConversion(refused)).toEqual({ ok: false, code: '42501' })
    expect(loggedText(errors.mock.calls)).toMatch(
      /Material conversion not stored: embedded store, conversoes_material failed with code 42501/,
    )
    expectNoPersonalData(loggedText(errors.mock.calls))

    await closeEmbeddedLeadStores()
    const db = await openPglite(dataDir)
    try {
      const rows = await db.query(
        `select material, identificador, nome, dados_formulario, utm_campaign, chave_envio
         from public.conversoes_material`,
      )
      expect(rows.rows).toEqual([
        {
          material: 'guia-fadiga',
          identificador: 'guia-fadiga',
          nome: 'Ana Teste',
          dados_formulario: keyed.dados_formulario,
          utm_campaign: null,
          chave_envio: 'f'.repeat(64),
        },
      ])
      const leads = await db.query(
        `select (select count(*) from public.dados_cliente)::int as dados,
           (select count(*) from public.chat_messages)::int as chat`,
      )
      expect(leads.rows).toEqual([{ dados: 0, chat: 0 }])
    } finally {
      await db.close()
    }
  }, 60_000)
})

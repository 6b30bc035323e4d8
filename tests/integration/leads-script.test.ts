import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'

import { applyMigrations, queryAsAnon } from '@/lib/leads/db.mjs'
import { enableDestinations } from '@/lib/leads/delivery/queue.mjs'
import { closeEmbeddedLeadStores, createEmbeddedLeadStore } from '@/lib/leads/embedded-store'
import type { LeadRecord } from '@/lib/leads/types'

import { main } from '../../scripts/leads.mjs'
import { createTestDatabase, hasPostgres, seedPgliteFolder } from './helpers/database'
import { leadRecord, materialRecord } from './helpers/records'
import { runScript } from './helpers/script'

const run = promisify(execFile)
const script = path.resolve('scripts/leads.mjs')
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'leads-script-'))

/** The environment of a call: the script reads DATABASE_URL when set; each case decides. */
function environment(env: Record<string, string | undefined>) {
  const base = { ...process.env }
  delete base.DATABASE_URL
  return { ...base, ...env }
}

/** `npm run leads -- ...args`, in this process (the CLI itself: the first test). */
async function leadsCommand(env: Record<string, string | undefined>, ...args: string[]) {
  const result = await runScript(main, args, { env: environment(env), cwd: root })
  if (result.code !== 0) throw Object.assign(new Error(`exit ${result.code}`), result)
  return result
}

const older = leadRecord({
  dadosCliente: { nomewpp: 'Primeira Pessoa', telefone: '5511911112222' },
  chatMessage: { nomewpp: 'Primeira Pessoa', phone: '5511911112222' },
})
const half = leadRecord({ dadosCliente: { nomewpp: 'Segunda Pessoa', telefone: null } })
const newer = leadRecord({
  dadosCliente: { nomewpp: 'Terceira Pessoa', telefone: null },
  chatMessage: { nomewpp: 'Terceira Pessoa', phone: null },
})

function expectNewestFirst(requests: unknown) {
  expect(requests).toEqual([
    expect.objectContaining({
      nomewpp: 'Terceira Pessoa',
      telefone: null,
      chatMessage: expect.objectContaining({ user_message: newer.chatMessage.user_message }),
    }),
    // Its second insert failed: listed, and visibly without its chat message.
    expect.objectContaining({ nomewpp: 'Segunda Pessoa', chatMessage: null }),
    expect.objectContaining({
      nomewpp: 'Primeira Pessoa',
      telefone: '5511911112222',
      atendimento_ia: older.dadosCliente.atendimento_ia,
    }),
  ])
}

afterEach(async () => {
  vi.restoreAllMocks()
  await closeEmbeddedLeadStores()
}, 60_000)
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

describe('npm run leads', () => {
  it('says so when the embedded store holds nothing yet, and exits 2 on a bad option (node)', async () => {
    const env = environment({ LEADS_DATA_DIR: path.join(root, 'none') })
    const { stdout } = await run(process.execPath, [script], { env, cwd: root })
    expect(stdout).toContain('No demo requests yet')
    const bad = await run(process.execPath, [script, '--limit', '0'], { env, cwd: root }).catch(
      (error: { code: number; stderr: string }) => error,
    )
    expect(bad).toMatchObject({
      code: 2,
      stderr: '--limit deve ser um número inteiro positivo (1, 2, 3…), não "0".\n',
    })
    // The two that write need the store itself: without one, a line saying where it looked.
    for (const args of [['--disable', 'email'], ['--retry-failed']]) {
      const none = await runScript(main, args, { env, cwd: root })
      expect(none).toEqual({
        code: 1,
        stdout: '',
        stderr: `Não foi possível alterar as entregas: nenhum armazenamento embutido em ${path.join(root, 'none')}. Aponte LEADS_DATA_DIR para a pasta dele ou DATABASE_URL para o PostgreSQL.\n`,
      })
    }
  }, 60_000)

  it('lists the embedded store newest first, while the store is open in another process', async () => {
    const dataDir = path.join(root, 'embedded')
    seedPgliteFolder(dataDir)
    const store = createEmbeddedLeadStore({ dataDir })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    // The middle one's second insert is refused by the policy (its text is too long).
    const refusedSecond: LeadRecord = {
      ...half,
      chatMessage: { ...half.chatMessage, user_message: 'x'.repeat(4001) },
    }
    for (const record of [older, refusedSecond, newer]) await store.insertLead(record)

    const { stdout } = await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--json')
    expectNewestFirst(JSON.parse(stdout))

    const text = await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--limit', '1')
    expect(text.stdout).toContain('1 demo request from embedded store')
    expect(text.stdout).toContain('Terceira Pessoa')
    expect(text.stdout).not.toContain('Primeira Pessoa')
    // The store still works: the script read a copy and left the folder alone.
    expect(await store.insertLead(older)).toEqual({ ok: true })
  }, 120_000)

  it('shows pending and failed deliveries with the oldest pending age (--deliveries)', async () => {
    const dataDir = path.join(root, 'deliveries')
    seedPgliteFolder(dataDir)
    const store = createEmbeddedLeadStore({ dataDir })
    const db = await store.database()
    await enableDestinations(db, ['email', 'webhook'])
    const site = (name: string) =>
      leadRecord({
        dadosCliente: {
          nomewpp: name,
          atendimento_ia: 'Dados do formulário do site | Empresa: «X»',
        },
      })
    expect(await store.insertLead(site('Quarta Pessoa'))).toEqual({ ok: true })
    // A material's conversion (issue 65): the webhook only, as the material asks no sales e-mail.
    expect(
      await store.insertConversion(materialRecord({ identificador: 'checklist-frota' })),
    ).toEqual({ ok: true })
    await db.exec(
      `update lead_delivery.deliveries set status = 'failed', attempts = 1, last_error = 'HTTP 401',
         created_at = now() - interval '10 minutes' where destination = 'webhook'`,
    )
    await db.exec(
      `update lead_delivery.deliveries set created_at = now() - interval '5 minutes', attempts = 3,
         last_error = 'ECONNREFUSED' where destination = 'email'`,
    )

    const text = await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--deliveries')
    expect(text.stdout).toContain(
      'Deliveries: email 0 delivered, 1 pending (oldest 5 min), 0 failed (no running instance sends to it); webhook 0 delivered, 0 pending, 2 failed.',
    )
    expect(text.stdout).toMatch(
      /material conversion [0-9a-f-]{36} {2}webhook {2}failed, 1 attempt\(s\), last error: HTTP 401/,
    )
    expect(text.stdout).toMatch(
      /lead [0-9a-f-]{36} {2}email {2}pending, 3 attempt\(s\), next .*, last error: ECONNREFUSED/,
    )
    expect(text.stdout).toMatch(/webhook {2}failed, 1 attempt\(s\), last error: HTTP 401/)
    // The visitor's data stays in the table listing, not in the deliveries'.
    expect(text.stdout).not.toContain('Quarta Pessoa')
    const json = JSON.parse(
      (await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--deliveries', '--json')).stdout,
    )
    expect(json.summary).toEqual([
      {
        destination: 'email',
        pending: 1,
        failed: 0,
        delivered: 0,
        oldestPendingSeconds: expect.any(Number),
        sent: false,
      },
      {
        destination: 'webhook',
        pending: 0,
        failed: 2,
        delivered: 0,
        oldestPendingSeconds: null,
        sent: false,
      },
    ])
    expect(json.deliveries.map((one: { kind: string }) => one.kind).sort()).toEqual([
      'demo',
      'demo',
      'material',
    ])
    expect(json.summary[0].oldestPendingSeconds).toBeGreaterThanOrEqual(300)
    const plain = await leadsCommand({ LEADS_DATA_DIR: dataDir })
    expect(plain.stdout).toContain('Quarta Pessoa')
    // Conversions are listed on their own, not among the demo requests.
    expect(plain.stdout).not.toContain('Ana Teste')
    const materials = await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--materials')
    expect(materials.stdout).toContain('1 material conversion from embedded store')
    expect(materials.stdout).toContain('checklist-frota  Ana Teste  ana.teste@frota-exemplo.com.br')
    expect(materials.stdout).toContain('e-mails de marketing: não aceitou; comercial avisado: não')
    const materialsJson = JSON.parse(
      (await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--materials', '--json')).stdout,
    )
    expect(materialsJson).toEqual([
      expect.objectContaining({
        identifier: 'checklist-frota',
        company: 'Frota Exemplo',
        emailConsent: false,
        salesNotified: false,
      }),
    ])
    expect(plain.stdout).toContain('Deliveries: email 0 delivered, 1 pending')

    // The operator's two switches write to the store itself, so the server must be stopped.
    await closeEmbeddedLeadStores()
    const off = await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--disable', 'email')
    expect(off.stdout).toContain('email is off: no lead is queued for it from now on; 1 waiting')
    const again = await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--retry-failed')
    // The lead's webhook and the conversion's; the e-mail --disable gave up stays given up, and
    // the command says why (issue 66).
    expect(again.stdout).toContain('2 failed delivery(ies) queued again.')
    expect(again.stdout).toContain('Left failed: 1 to email, switched off (--disable).')
    const after = JSON.parse(
      (await leadsCommand({ LEADS_DATA_DIR: dataDir }, '--deliveries', '--json')).stdout,
    )
    expect(
      after.summary.map(({ destination, pending, failed }: Record<string, unknown>) => ({
        destination,
        pending,
        failed,
      })),
    ).toEqual([
      { destination: 'email', pending: 0, failed: 1 },
      { destination: 'webhook', pending: 2, failed: 0 },
    ])
    const bad = await runScript(main, ['--disable', 'slack'], {
      env: environment({ LEADS_DATA_DIR: dataDir }),
      cwd: root,
    })
    expect(bad).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Não foi possível alterar as entregas: destino desconhecido: "slack". Este banco conhece: email, webhook.\n',
    })
  }, 120_000)

  it.runIf(hasPostgres())(
    'lists a PostgreSQL database given by DATABASE_URL',
    async () => {
      const database = await createTestDatabase()
      try {
        await applyMigrations(database.db)
        for (const record of [older, half, newer]) {
          const { dadosCliente: d, chatMessage: c } = record
          await queryAsAnon(
            database.db,
            'insert into public.dados_cliente (nomewpp, telefone, atendimento_ia) values ($1, $2, $3)',
            [d.nomewpp, d.telefone, d.atendimento_ia],
          )
          if (record !== half) {
            await queryAsAnon(
              database.db,
              'insert into public.chat_messages (nomewpp, phone, user_message, message_type) values ($1, $2, $3, $4)',
              [c.nomewpp, c.phone, c.user_message, c.message_type],
            )
          }
        }
        const { stdout } = await leadsCommand({ DATABASE_URL: database.url }, '--json')
        expectNewestFirst(JSON.parse(stdout))
      } finally {
        await database.close()
      }
    },
    60_000,
  )
})

import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
  type MockInstance,
} from 'vitest'

import { createSupabaseLeadStore } from '@/lib/leads/supabase-store'

import { startPostgrestDouble } from '../support/postgrest-double.mjs'
import {
  backendLabel,
  createTestDatabase,
  seedPgliteFolder,
  type TestDatabase,
} from './helpers/database'
import {
  expectNoPersonalData,
  leadRecord,
  loggedText,
  materialRecord,
  PERSON,
} from './helpers/records'

type Double = Awaited<ReturnType<typeof startPostgrestDouble>>

/** Talks to the double over HTTP, as the Playwright tests will. */
async function control(double: Double, path: string, body?: unknown) {
  const response = await fetch(`${double.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.ok).toBe(true)
  return response.json()
}

describe(`the Supabase lead store, through supabase-js and the PostgREST double on ${backendLabel}`, () => {
  let database: TestDatabase | undefined
  let double: Double
  let errors: MockInstance<typeof console.error>

  const store = (options: { anonKey?: string; timeoutMs?: number; url?: string } = {}) =>
    createSupabaseLeadStore({
      url: options.url ?? double.url,
      anonKey: options.anonKey ?? double.anonKey,
      timeoutMs: options.timeoutMs ?? 1000,
    })

  beforeAll(async () => {
    if (process.env.DATABASE_URL) database = await createTestDatabase()
    double = await startPostgrestDouble({ port: 0, databaseUrl: database?.url })
  }, 120_000)
  afterAll(async () => {
    await double?.close()
    await database?.close()
  })
  beforeEach(async () => {
    await control(double, '/__reset', {})
    errors = vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(() => {
    // Whatever happened, the visitor's data stayed out of the log.
    expectNoPersonalData(loggedText(errors.mock.calls))
    vi.restoreAllMocks()
  })

  it('writes both rows with the anon key, as plain inserts (no read back)', async () => {
    const record = leadRecord()
    expect(await store().insertLead(record)).toEqual({ ok: true })

    expect(await control(double, '/__rows/dados_cliente')).toEqual([
      expect.objectContaining({ ...record.dadosCliente, id: 1 }),
    ])
    expect(await control(double, '/__rows/chat_messages')).toEqual([
      expect.objectContaining({ ...record.chatMessage, id: 1 }),
    ])
    const requests = await control(double, '/__requests')
    expect(requests).toEqual([
      expect.objectContaining({
        table: 'dados_cliente',
        method: 'POST',
        authorized: true,
        status: 201,
        outcome: 'inserted',
      }),
      expect.objectContaining({
        table: 'chat_messages',
        method: 'POST',
        authorized: true,
        status: 201,
        outcome: 'inserted',
      }),
    ])
    for (const request of requests) {
      expect(request).toMatchObject({ hasApikey: true, hasAuthorization: true, query: '' })
      expect(request.prefer ?? '').not.toMatch(/return=representation/)
    }
    expect(errors).not.toHaveBeenCalled()
  })

  it("stores a material's conversion in one plain insert, once per key, and cannot read it back", async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const record = materialRecord({ chave_envio: 'c'.repeat(64) })
    expect(await store().insertConversion(record)).toEqual({ ok: true })
    expect(await store().insertConversion(record)).toEqual({ ok: true })
    const rows = await control(double, '/__rows/conversoes_material')
    expect(rows).toEqual([
      expect.objectContaining({
        material: 'guia-fadiga',
        nome: 'Ana Teste',
        dados_formulario: record.dados_formulario,
        consentimento_email: false,
      }),
    ])
    const requests = await control(double, '/__requests')
    expect(requests.map((r: { table: string; status: number }) => [r.table, r.status])).toEqual([
      ['conversoes_material', 201],
      ['conversoes_material', 409],
    ])
    for (const request of requests) expect(request.prefer ?? '').not.toMatch(/representation/)
    // Refused by the policy (oversize form): its code, and nothing of the visitor in the log.
    const huge = materialRecord({
      nome: PERSON.name,
      dados_formulario: { ...record.dados_formulario, message: 'x'.repeat(9000) },
    })
    expect(await store().insertConversion(huge)).toEqual({ ok: false, code: '42501' })
    expect(loggedText(errors.mock.calls)).toMatch(
      /Material conversion not stored: supabase store, conversoes_material failed with code 42501/,
    )
    // The anon key reads nothing back.
    const read = await fetch(`${double.url}/rest/v1/conversoes_material?select=email`, {
      headers: { apikey: double.anonKey, authorization: `Bearer ${double.anonKey}` },
    })
    expect(read.status).toBeGreaterThanOrEqual(400)
  })

  it('stores every dimension, and keeps the lead and the download when this code runs before the migration adding them (issue 68)', async () => {
    const dimensoes = { page: '/', device: 'phone' }
    expect(await store().insertLead(leadRecord({ dadosCliente: { dimensoes } }))).toEqual({
      ok: true,
    })
    expect(await control(double, '/__rows/dados_cliente')).toEqual([
      expect.objectContaining({ dimensoes }),
    ])
    // The schema as it was before 20270410000000_analytics_generic.sql.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-migrations-'))
    for (const file of fs.readdirSync('supabase/migrations'))
      if (file < '20270410') fs.copyFileSync(`supabase/migrations/${file}`, path.join(dir, file))
    const old = process.env.DATABASE_URL ? await createTestDatabase() : undefined
    const before = await startPostgrestDouble({
      port: 0,
      databaseUrl: old?.url,
      migrationsDir: dir,
    })
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const ahead = store({ url: before.url, anonKey: before.anonKey, timeoutMs: 5000 })
      expect(await ahead.insertLead(leadRecord({ dadosCliente: { dimensoes } }))).toEqual({
        ok: true,
      })
      expect(await ahead.insertConversion(materialRecord({ dimensoes }))).toEqual({ ok: true })
      expect(await control(before, '/__rows/dados_cliente')).toEqual([
        expect.objectContaining({ nomewpp: PERSON.name }),
      ])
      expect(await control(before, '/__rows/chat_messages')).toHaveLength(1)
      expect(await control(before, '/__rows/conversoes_material')).toHaveLength(1)
      expect(loggedText(warned.mock.calls)).toMatch(/dados_cliente has no dimensoes column yet/)
    } finally {
      await before.close()
      await old?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it('stores a request without a phone with NULL in both tables', async () => {
    const record = leadRecord({ dadosCliente: { telefone: null }, chatMessage: { phone: null } })
    expect(await store().insertLead(record)).toEqual({ ok: true })
    expect(await control(double, '/__rows/dados_cliente')).toEqual([
      expect.objectContaining({ telefone: null }),
    ])
    expect(await control(double, '/__rows/chat_messages')).toEqual([
      expect.objectContaining({ phone: null }),
    ])
  })

  it('reports the database refusing the first insert, and never tries the second', async () => {
    const result = await store().insertLead(
      leadRecord({ dadosCliente: { telefone: '+55 11 98765-4321' } }),
    )
    expect(result).toEqual({ ok: false, step: 'dados_cliente', code: '42501' })
    expect((await control(double, '/__requests')).map((r: { table: string }) => r.table)).toEqual([
      'dados_cliente',
    ])
    expect(await control(double, '/__rows/dados_cliente')).toEqual([])
    expect(loggedText(errors.mock.calls)).toMatch(
      /supabase store, step dados_cliente failed with code 42501 \(HTTP 401\)/,
    )
  })

  it('stops after a failed first insert: the second is never attempted', async () => {
    await control(double, '/__control', { failTable: 'dados_cliente', mode: 'error' })
    expect(await store().insertLead(leadRecord())).toEqual({
      ok: false,
      step: 'dados_cliente',
      code: '23514',
    })

    const requests = await control(double, '/__requests')
    expect(requests).toEqual([
      expect.objectContaining({ table: 'dados_cliente', outcome: 'forced-error', status: 400 }),
    ])
    expect(await control(double, '/__rows/dados_cliente')).toEqual([])
    expect(await control(double, '/__rows/chat_messages')).toEqual([])
    expect(errors).toHaveBeenCalledTimes(1)
  })

  it('keeps the first row when the second insert fails', async () => {
    const record = leadRecord()
    await control(double, '/__control', {
      failTable: 'chat_messages',
      mode: 'error',
      status: 409,
      code: '23505',
    })
    // A unique violation that is not the submission key's own: still an error.
    expect(await store().insertLead(record)).toEqual({
      ok: false,
      step: 'chat_messages',
      code: '23505',
    })

    expect(await control(double, '/__rows/dados_cliente')).toEqual([
      expect.objectContaining(record.dadosCliente),
    ])
    expect(await control(double, '/__rows/chat_messages')).toEqual([])
    expect(loggedText(errors.mock.calls)).toMatch(
      /step chat_messages failed with code 23505 \(HTTP 409\)/,
    )
  })

  it.each(['dados_cliente', 'chat_messages'] as const)(
    'maps a 500 without a JSON body on %s to an error',
    async (table) => {
      await control(double, '/__control', { failTable: table, mode: '500' })
      expect(await store().insertLead(leadRecord())).toEqual({
        ok: false,
        step: table,
        code: 'http_500',
      })
      expect((await control(double, '/__rows/dados_cliente')).length).toBe(
        table === 'chat_messages' ? 1 : 0,
      )
    },
  )

  it.each(['dados_cliente', 'chat_messages'] as const)(
    'gives up on a hanging %s insert when the time budget runs out',
    async (table) => {
      await control(double, '/__control', { failTable: table, mode: 'hang' })
      const started = Date.now()
      const result = await store({ timeoutMs: 1000 }).insertLead(leadRecord())
      const elapsed = Date.now() - started

      expect(result).toEqual({ ok: false, step: table, code: 'timeout' })
      expect(elapsed).toBeGreaterThanOrEqual(900)
      expect(elapsed).toBeLessThan(3000)
      const requests = await control(double, '/__requests')
      expect(requests.at(-1)).toMatchObject({ table, outcome: 'hang' })
      expect((await control(double, '/__rows/dados_cliente')).length).toBe(
        table === 'chat_messages' ? 1 : 0,
      )
    },
  )

  it('stores a retried submission (same key) once, even after its answer was lost', async () => {
    const key = 'b'.repeat(64)
    const record = leadRecord({
      dadosCliente: { chave_envio: key },
      chatMessage: { chave_envio: key },
    })
    // The first attempt commits both rows but never hears back from the second: a time-out.
    await control(double, '/__control', { failTable: 'chat_messages', mode: 'hang-after-commit' })
    expect(await store({ timeoutMs: 800 }).insertLead(record)).toEqual({
      ok: false,
      step: 'chat_messages',
      code: 'timeout',
    })
    await control(double, '/__control', { failTable: null, mode: null })
    // The visitor presses send again: the same key, answered as stored, nothing written twice.
    expect(await store().insertLead(record)).toEqual({ ok: true })
    expect(await store().insertLead(record)).toEqual({ ok: true })
    expect(await control(double, '/__rows/dados_cliente')).toHaveLength(1)
    expect(await control(double, '/__rows/chat_messages')).toHaveLength(1)
  })

  it('stores the second row on a retry when only the first had been stored', async () => {
    const key = 'c'.repeat(64)
    const record = leadRecord({
      dadosCliente: { chave_envio: key },
      chatMessage: { chave_envio: key },
    })
    await control(double, '/__control', { failTable: 'chat_messages', mode: '500' })
    expect((await store().insertLead(record)).ok).toBe(false)
    await control(double, '/__control', { failTable: null, mode: null })
    expect(await store().insertLead(record)).toEqual({ ok: true })
    expect(await control(double, '/__rows/dados_cliente')).toHaveLength(1)
    expect(await control(double, '/__rows/chat_messages')).toHaveLength(1)
  })

  it('refuses a request key that is not a digest', async () => {
    const record = leadRecord({ dadosCliente: { chave_envio: 'not-a-digest' } })
    expect(await store().insertLead(record)).toMatchObject({ ok: false, step: 'dados_cliente' })
  })

  it('is refused with a wrong anon key, and stores nothing', async () => {
    expect(await store({ anonKey: 'not-the-anon-key' }).insertLead(leadRecord())).toEqual({
      ok: false,
      step: 'dados_cliente',
      code: 'http_401',
    })
    expect(await control(double, '/__requests')).toEqual([
      expect.objectContaining({
        table: 'dados_cliente',
        authorized: false,
        status: 401,
        outcome: 'unauthorized',
      }),
    ])
    expect(await control(double, '/__rows/dados_cliente')).toEqual([])
  })

  it('reports a network error when nothing listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo
        server.close(() => resolve(port))
      })
    })
    expect(await store({ url: `http://127.0.0.1:${port}` }).insertLead(leadRecord())).toEqual({
      ok: false,
      step: 'dados_cliente',
      code: 'network',
    })
  })

  it('lets the anon key read nothing back through the REST interface', async () => {
    expect(await store().insertLead(leadRecord())).toEqual({ ok: true })
    const response = await fetch(`${double.url}/rest/v1/dados_cliente?select=*`, {
      headers: { apikey: double.anonKey, authorization: `Bearer ${double.anonKey}` },
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: '42501' })
  })
})

describe('the PostgREST double as a command', () => {
  let child: ChildProcess | undefined
  const pgliteDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'postgrest-cli-')), 'db')
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(path.dirname(pgliteDir), { recursive: true, force: true })
  })

  it('starts from the command line and takes inserts from supabase-js', async () => {
    const script = path.resolve('tests/support/postgrest-double.mjs')
    // On a copy of the run's migrated PGlite (--pglite-dir): the in-memory default runs initdb in
    // the child, 5 to 50 s of WebAssembly for what the Playwright servers already start that way.
    seedPgliteFolder(pgliteDir)
    child = spawn(
      process.execPath,
      [script, '--port', '0', '--anon-key', 'cli-key', '--pglite-dir', pgliteDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const url = await new Promise<string>((resolve, reject) => {
      let output = ''
      child!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const match = output.match(/listening on (http:\/\/\S+)/)
        if (match?.[1]) resolve(match[1])
      })
      child!.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child!.once('exit', (code) => reject(new Error(`The double exited (${code}): ${output}`)))
    })

    const record = leadRecord()
    const result = await createSupabaseLeadStore({ url, anonKey: 'cli-key' }).insertLead(record)
    expect(result).toEqual({ ok: true })
    const rows = await (await fetch(`${url}/__rows/chat_messages`)).json()
    expect(rows).toEqual([expect.objectContaining(record.chatMessage)])
  }, 60_000)
})

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { NextRequest } from 'next/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const SERVER_DIST_DIR_KEY = Symbol.for('vigia.serverDistDir')
const globals = globalThis as Record<symbol, unknown>

async function healthRoute() {
  vi.resetModules()
  return import('@/app/api/health/route')
}

const SECRET = 'the-operators-internal-secret'
/** HEALTH_DETAILS_TOKEN, as long as lib/env.ts asks (openssl rand -hex 32). */
const OPS_TOKEN = 'a3f1c9e07b5d42e8916c0d7f3b2a8e45c6d9f0a1b2c3d4e5f60718293a4b5c6d'
/** An operator on the machine, who knows the server's internal secret (INTERNAL_API_SECRET). */
const OPERATOR = { 'x-internal-secret': SECRET }

/** A request as the route gets it: `next start` fills X-Forwarded-For when none came. */
async function get(headers: Record<string, string> = {}) {
  return new NextRequest('http://127.0.0.1:3000/api/health', {
    headers: { 'x-forwarded-for': '127.0.0.1', ...headers },
  })
}

describe('GET /api/health', () => {
  let serverDistDir: string

  beforeEach(() => {
    vi.stubEnv('REDIS_URL', '')
    vi.stubEnv('INTERNAL_API_SECRET', SECRET)
    vi.stubEnv('SUPABASE_URL', '')
    vi.stubEnv('SUPABASE_ANON_KEY', '')
    serverDistDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-health-'))
    fs.mkdirSync(path.join(serverDistDir, 'app'))
    fs.writeFileSync(path.join(serverDistDir, 'app', 'index.html'), '<!doctype html>')
    // What the cache handler records for every request.
    globals[SERVER_DIST_DIR_KEY] = serverDistDir
  })

  afterEach(() => {
    vi.unstubAllEnvs()
    delete globals[SERVER_DIST_DIR_KEY]
    fs.rmSync(serverDistDir, { recursive: true, force: true })
  })

  it('says which parts work, is never cached and sets no cookie', async () => {
    const { GET, dynamic } = await healthRoute()
    expect(dynamic).toBe('force-dynamic')
    const response = GET(await get(OPERATOR))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await response.json()).toEqual({
      status: 'ok',
      pages: { ok: true },
      sharedCache: { mode: 'this instance only', ok: true },
      rateLimiter: { mode: 'this instance only', ok: true },
      leadStore: { mode: 'embedded', ok: true },
    })
  })

  it('names Supabase as the lead store when it is configured, without calling it', async () => {
    vi.stubEnv('SUPABASE_URL', 'https://project.supabase.co')
    vi.stubEnv('SUPABASE_ANON_KEY', 'anon-key')
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    const { GET } = await healthRoute()
    expect(await GET(await get(OPERATOR)).json()).toMatchObject({
      leadStore: { mode: 'supabase', ok: true },
    })
    expect(fetchSpy).not.toHaveBeenCalled()
    fetchSpy.mockRestore()
  })

  it('shows pending and failed lead deliveries, and only their ok to anyone else', async () => {
    const key = '__vigiaLeadDelivery'
    const store = globalThis as Record<string, unknown>
    // What lib/leads/delivery keeps in memory after its last round (every 2 s). This instance
    // sends e-mail and the webhook; RD Station's leads count too, sent by another instance or none.
    const stats = (rdSent: boolean) => [
      {
        destination: 'email',
        pending: 2,
        failed: 0,
        delivered: 5,
        oldestPendingSeconds: 40,
        sent: true,
      },
      {
        destination: 'webhook',
        pending: 1,
        failed: 1,
        delivered: 6,
        oldestPendingSeconds: 90,
        sent: true,
      },
      {
        destination: 'rdstation',
        pending: 7,
        failed: 0,
        delivered: 0,
        oldestPendingSeconds: 9,
        sent: rdSent,
      },
    ]
    store[key] = { senders: { email: () => {}, webhook: () => {} }, stats: stats(true) }
    try {
      const { GET } = await healthRoute()
      expect((await GET(await get(OPERATOR)).json()).leadDelivery).toMatchObject({
        ok: false,
        destinations: ['email', 'webhook'],
        pending: 10,
        failed: 1,
        oldestPendingSeconds: 90,
        problem: expect.stringContaining('1 delivery(ies) failed'),
      })
      const outside = await GET(await get({ 'x-forwarded-for': '203.0.113.9' })).json()
      expect(outside.leadDelivery).toEqual({ ok: false })

      // No running instance sends to RD Station: said first, whatever else is wrong.
      store[key] = { senders: {}, stats: stats(false) }
      expect((await GET(await get(OPERATOR)).json()).leadDelivery).toMatchObject({
        ok: false,
        destinations: [],
        problem: expect.stringMatching(
          /^7 lead\(s\) wait for rdstation, which no running instance sends to: .*--disable rdstation$/,
        ),
      })
    } finally {
      delete store[key]
    }
  })

  it('answers 503 when the build’s prerendered pages are missing, the one case it cannot serve them', async () => {
    fs.rmSync(path.join(serverDistDir, 'app'), { recursive: true })
    const { GET } = await healthRoute()
    const response = GET(await get(OPERATOR))
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({
      status: 'down',
      pages: { ok: false, problem: expect.stringContaining('prerendered home page is missing') },
    })
  })

  it('gives anyone else only the status and each part’s ok, no modes, problems or paths', async () => {
    fs.rmSync(path.join(serverDistDir, 'app'), { recursive: true })
    vi.stubEnv('HEALTH_DETAILS_TOKEN', OPS_TOKEN)
    const { GET } = await healthRoute()
    for (const headers of <Array<Record<string, string>>>[
      // Straight from this machine, or so it says: a route never sees the socket.
      {},
      { 'x-forwarded-for': '::1' },
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
      { 'x-real-ip': '127.0.0.1' },
      // The old loopback mark, forged.
      { 'x-internal-direct-loopback': '1' },
      // A wrong token or secret.
      { 'x-health-token': 'guess' },
      { 'x-internal-secret': 'guess' },
      { 'x-internal-secret': OPS_TOKEN },
    ]) {
      const response = GET(await get(headers))
      expect(response.status).toBe(503)
      expect(await response.json(), JSON.stringify(headers)).toEqual({
        status: 'down',
        pages: { ok: false },
        sharedCache: { ok: true },
        rateLimiter: { ok: true },
        leadStore: { ok: true },
      })
    }
  })

  it('without HEALTH_DETAILS_TOKEN, gives the details to no request from this machine without the secret', async () => {
    vi.stubEnv('HEALTH_DETAILS_TOKEN', '')
    const { GET } = await healthRoute()
    // get() sends what `next start` writes for a request straight from loopback.
    const details = await GET(await get()).json()
    expect(details).toEqual({
      status: 'ok',
      pages: { ok: true },
      sharedCache: { ok: true },
      rateLimiter: { ok: true },
      leadStore: { ok: true },
    })
  })

  it('gives the details to a request with HEALTH_DETAILS_TOKEN or the server’s internal secret', async () => {
    vi.stubEnv('HEALTH_DETAILS_TOKEN', OPS_TOKEN)
    const { GET } = await healthRoute()
    for (const headers of <Array<Record<string, string>>>[
      { 'x-internal-secret': SECRET },
      { 'x-forwarded-for': '203.0.113.7', 'x-health-token': OPS_TOKEN },
      { 'x-health-token': OPS_TOKEN },
    ]) {
      expect(await GET(await get(headers)).json(), JSON.stringify(headers)).toMatchObject({
        sharedCache: { mode: 'this instance only' },
        leadStore: { mode: 'embedded' },
      })
    }
  })
})

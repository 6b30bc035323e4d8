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

/** A request as `next start` sees it: X-Forwarded-For holds the socket's address if none came. */
function get(headers: Record<string, string> = { 'x-forwarded-for': '127.0.0.1' }) {
  return new NextRequest('http://127.0.0.1:3000/api/health', { headers })
}

describe('GET /api/health', () => {
  let serverDistDir: string

  beforeEach(() => {
    vi.stubEnv('REDIS_URL', '')
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
    const response = GET(get())
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
    expect(await GET(get()).json()).toMatchObject({ leadStore: { mode: 'supabase', ok: true } })
    expect(fetchSpy).not.toHaveBeenCalled()
    fetchSpy.mockRestore()
  })

  it('answers 503 when the build’s prerendered pages are missing, the one case it cannot serve them', async () => {
    fs.rmSync(path.join(serverDistDir, 'app'), { recursive: true })
    const { GET } = await healthRoute()
    const response = GET(get())
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({
      status: 'down',
      pages: { ok: false, problem: expect.stringContaining('prerendered home page is missing') },
    })
  })

  it('gives anyone else only the status and each part’s ok, no modes, problems or paths', async () => {
    fs.rmSync(path.join(serverDistDir, 'app'), { recursive: true })
    const { GET } = await healthRoute()
    for (const headers of <Array<Record<string, string>>>[
      // A visitor through the front (nginx appends the address it saw).
      { 'x-forwarded-for': '203.0.113.7' },
      // A visitor forging a loopback address through the front.
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
      { 'x-forwarded-for': '::1, 127.0.0.1' },
      // A wrong token.
      { 'x-forwarded-for': '203.0.113.7', 'x-health-token': 'guess' },
    ]) {
      const response = GET(get(headers))
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({
        status: 'down',
        pages: { ok: false },
        sharedCache: { ok: true },
        rateLimiter: { ok: true },
        leadStore: { ok: true },
      })
    }
  })

  it('gives the details to a request from this machine (IPv4 or IPv6) or with HEALTH_DETAILS_TOKEN', async () => {
    vi.stubEnv('HEALTH_DETAILS_TOKEN', 'ops-token')
    const { GET } = await healthRoute()
    for (const headers of <Array<Record<string, string>>>[
      { 'x-forwarded-for': '127.0.0.1' },
      { 'x-forwarded-for': '::1' },
      { 'x-forwarded-for': '::ffff:127.0.0.1' },
      { 'x-forwarded-for': '203.0.113.7', 'x-health-token': 'ops-token' },
    ]) {
      expect(await GET(get(headers)).json(), JSON.stringify(headers)).toMatchObject({
        sharedCache: { mode: 'this instance only' },
        leadStore: { mode: 'embedded' },
      })
    }
  })
})

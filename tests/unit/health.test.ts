import fs from 'node:fs'
import http from 'node:http'
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

/**
 * A request as the route gets it: the server marks it from its socket when it arrives
 * (lib/security/direct-loopback.ts), then `next start` fills X-Forwarded-For with the socket's
 * address if the request brought none. By default, straight from this machine.
 */
async function get(headers: Record<string, string> = {}, socketAddress = '127.0.0.1') {
  const { stampDirectLoopback } = await import('@/lib/security/direct-loopback')
  const arriving = {
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    ) as Record<string, string | undefined>,
    socket: { remoteAddress: socketAddress },
  }
  stampDirectLoopback(arriving as unknown as http.IncomingMessage)
  arriving.headers['x-forwarded-for'] ??= socketAddress
  return new NextRequest('http://127.0.0.1:3000/api/health', {
    headers: arriving.headers as Record<string, string>,
  })
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
    const response = GET(await get())
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
    expect(await GET(await get()).json()).toMatchObject({
      leadStore: { mode: 'supabase', ok: true },
    })
    expect(fetchSpy).not.toHaveBeenCalled()
    fetchSpy.mockRestore()
  })

  it('shows pending and failed lead deliveries, and only their ok to anyone else', async () => {
    const key = '__vigiaLeadDelivery'
    const store = globalThis as Record<string, unknown>
    // What lib/leads/delivery keeps in memory after its last round (every 2 s).
    store[key] = {
      senders: { email: () => {}, webhook: () => {} },
      stats: [
        { destination: 'email', pending: 2, failed: 0, delivered: 5, oldestPendingSeconds: 40 },
        { destination: 'webhook', pending: 1, failed: 1, delivered: 6, oldestPendingSeconds: 90 },
        { destination: 'rdstation', pending: 7, failed: 0, delivered: 0, oldestPendingSeconds: 9 },
      ],
    }
    try {
      const { GET } = await healthRoute()
      expect((await GET(await get()).json()).leadDelivery).toMatchObject({
        ok: false,
        destinations: ['email', 'webhook'],
        pending: 3,
        failed: 1,
        oldestPendingSeconds: 90,
        problem: expect.stringContaining('1 delivery(ies) failed'),
      })
      const outside = await GET(await get({}, '203.0.113.9')).json()
      expect(outside.leadDelivery).toEqual({ ok: false })
    } finally {
      delete store[key]
    }
  })

  it('answers 503 when the build’s prerendered pages are missing, the one case it cannot serve them', async () => {
    fs.rmSync(path.join(serverDistDir, 'app'), { recursive: true })
    const { GET } = await healthRoute()
    const response = GET(await get())
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({
      status: 'down',
      pages: { ok: false, problem: expect.stringContaining('prerendered home page is missing') },
    })
  })

  it('gives anyone else only the status and each part’s ok, no modes, problems or paths', async () => {
    fs.rmSync(path.join(serverDistDir, 'app'), { recursive: true })
    vi.stubEnv('HEALTH_DETAILS_TOKEN', 'ops-token')
    const { GET } = await healthRoute()
    const { DIRECT_LOOPBACK_HEADER } = await import('@/lib/security/direct-loopback')
    for (const [headers, socket] of <Array<[Record<string, string>, string]>>[
      // A visitor through the front (nginx appends the address it saw; its connection is loopback).
      [{ 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1'],
      // A visitor on this machine through the front: one loopback entry, and still a proxy.
      [{ 'x-forwarded-for': '127.0.0.1' }, '127.0.0.1'],
      [{ 'x-forwarded-for': '::1' }, '::1'],
      // A visitor forging a loopback address through the front.
      [{ 'x-forwarded-for': '127.0.0.1, 203.0.113.7' }, '127.0.0.1'],
      // A visitor reaching the instance directly and forging a loopback X-Forwarded-For.
      [{ 'x-forwarded-for': '127.0.0.1' }, '203.0.113.7'],
      [{ 'x-forwarded-for': '::ffff:127.0.0.1' }, '198.51.100.4'],
      // Other proxies' headers, from loopback.
      [{ forwarded: 'for=203.0.113.7' }, '127.0.0.1'],
      [{ 'x-real-ip': '203.0.113.7' }, '127.0.0.1'],
      [{ via: '1.1 cdn' }, '127.0.0.1'],
      // The server's own mark, forged.
      [{ [DIRECT_LOOPBACK_HEADER]: '1' }, '203.0.113.7'],
      [{ [DIRECT_LOOPBACK_HEADER]: 'true', 'x-forwarded-for': '127.0.0.1' }, '127.0.0.1'],
      // A wrong token.
      [{ 'x-health-token': 'guess' }, '203.0.113.7'],
    ]) {
      const response = GET(await get(headers, socket))
      expect(response.status).toBe(503)
      expect(await response.json(), `${JSON.stringify(headers)} from ${socket}`).toEqual({
        status: 'down',
        pages: { ok: false },
        sharedCache: { ok: true },
        rateLimiter: { ok: true },
        leadStore: { ok: true },
      })
    }
  })

  it('gives the details to a request straight from this machine (IPv4 or IPv6) or with HEALTH_DETAILS_TOKEN', async () => {
    vi.stubEnv('HEALTH_DETAILS_TOKEN', 'ops-token')
    const { GET } = await healthRoute()
    for (const [headers, socket] of <Array<[Record<string, string>, string]>>[
      [{}, '127.0.0.1'],
      [{}, '127.0.0.53'],
      [{}, '::1'],
      [{}, '::ffff:127.0.0.1'],
      [{ 'x-forwarded-for': '203.0.113.7', 'x-health-token': 'ops-token' }, '127.0.0.1'],
      [{ 'x-health-token': 'ops-token' }, '203.0.113.7'],
    ]) {
      expect(
        await GET(await get(headers, socket)).json(),
        `${JSON.stringify(headers)} from ${socket}`,
      ).toMatchObject({
        sharedCache: { mode: 'this instance only' },
        leadStore: { mode: 'embedded' },
      })
    }
  })
})

describe('the server’s mark on a request straight from this machine', () => {
  it('is set on a real HTTP server’s requests from loopback without proxy headers, and only on those', async () => {
    const { DIRECT_LOOPBACK_HEADER, installDirectLoopbackStamp, isDirectLoopback } =
      await import('@/lib/security/direct-loopback')
    installDirectLoopbackStamp()
    // Installed once per process, whatever the number of calls (one per bundle that loads it).
    installDirectLoopbackStamp()
    const seen: boolean[] = []
    const server = http.createServer((request, response) => {
      const headers = new Headers(request.headers as Record<string, string>)
      seen.push(isDirectLoopback(headers))
      response.end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    try {
      for (const headers of <Array<Record<string, string>>>[
        {},
        { 'x-forwarded-for': '127.0.0.1' },
        { [DIRECT_LOOPBACK_HEADER]: 'forged' },
        { 'x-real-ip': '127.0.0.1' },
      ]) {
        await fetch(`http://127.0.0.1:${port}/api/health`, { headers })
      }
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
    expect(seen).toEqual([true, false, true, false])
  })
})

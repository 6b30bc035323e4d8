import http from 'node:http'
import net from 'node:net'

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import { unannouncedBody } from '../support/streams'

// The beacon answered before Next's request handling (lib/analytics/early-beacon.ts), on a real
// node:http server whose own handler stands for Next: the beacon never reaches it, anything else
// does, and the answers are the route's (tests/unit/beacon-route.test.ts).

const recordView = vi.hoisted(() =>
  vi.fn<(view: unknown) => Promise<string>>(async () => 'counted'),
)
vi.mock('@/lib/analytics', () => ({ recordView }))

const reachedNext: string[] = []
let server: http.Server
let base: string

beforeAll(async () => {
  const { installEarlyBeacon } = await import('@/lib/analytics/early-beacon')
  installEarlyBeacon()
  // Installed once per process, whatever the number of calls (one per bundle that loads it).
  installEarlyBeacon()
  server = http.createServer((request, response) => {
    reachedNext.push(`${request.method} ${request.url}`)
    response.writeHead(405).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  reachedNext.length = 0
  recordView.mockClear()
})

function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Navegador/1.0', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit)
}

describe('the beacon answered before Next', () => {
  it('answers 204 with no body and no cookie, then counts the view once', async () => {
    const response = await post(
      '/api/analytics/view?x=1',
      JSON.stringify({ path: '/calculadora', utm_campaign: 'lancamento', extra: 1 }),
      { 'x-forwarded-for': '203.0.113.9' },
    )
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(response.headers.get('cache-control')).toBe('no-store')
    await vi.waitFor(() => expect(recordView).toHaveBeenCalledTimes(1))
    expect(recordView).toHaveBeenCalledWith({
      ip: '203.0.113.9',
      userAgent: 'Navegador/1.0',
      body: expect.objectContaining({
        path: '/calculadora',
        referrer: undefined,
        utm_source: undefined,
        utm_medium: undefined,
        utm_campaign: 'lancamento',
      }),
    })
    expect(reachedNext).toEqual([])
  })

  it('takes the socket’s address when no proxy gave one, as Next does', async () => {
    expect((await post('/api/analytics/view', '{"path":"/"}')).status).toBe(204)
    await vi.waitFor(() => expect(recordView).toHaveBeenCalledTimes(1))
    expect(recordView.mock.calls[0]![0]).toMatchObject({ ip: '127.0.0.1' })
  })

  it('refuses in Portuguese as the route does, counting nothing', async () => {
    const refused = async (response: Response) => ({
      status: response.status,
      type: response.headers.get('content-type'),
      sniff: response.headers.get('x-content-type-options'),
      error: ((await response.json()) as { error: string }).error,
    })
    expect(
      await refused(
        await post('/api/analytics/view', '{"path":"/"}', { 'content-type': 'text/plain' }),
      ),
    ).toEqual({
      status: 415,
      type: 'application/json',
      sniff: 'nosniff',
      error: 'Envie a visita como application/json.',
    })
    expect(await refused(await post('/api/analytics/view', '[1]'))).toMatchObject({ status: 400 })
    const big = JSON.stringify({ path: '/', pad: 'x'.repeat(3000) })
    expect(await refused(await post('/api/analytics/view', big))).toMatchObject({
      status: 413,
      error: 'A visita deve ter no máximo 2048 bytes.',
    })
    // No Content-Length: a stream of 3 chunks of 1 KB, abandoned once past the limit.
    const stream = unannouncedBody(3)
    expect(await refused(await post('/api/analytics/view', stream))).toMatchObject({ status: 413 })
    // A prefetch is answered and not counted.
    const prefetch = await post('/api/analytics/view', '{"path":"/"}', {
      'sec-purpose': 'prefetch',
    })
    expect(prefetch.status).toBe(204)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(recordView).not.toHaveBeenCalled()
    expect(reachedNext).toEqual([])
  })

  it('lets a beacon abandoned mid-body go, with no answer, count or log line', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const socket = net.connect(Number(new URL(base).port), '127.0.0.1')
      await new Promise((resolve) => socket.once('connect', resolve))
      socket.write(
        'POST /api/analytics/view HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n' +
          'content-length: 100\r\n\r\n{"path":"/"',
      )
      await new Promise((resolve) => setTimeout(resolve, 50))
      socket.destroy()
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(recordView).not.toHaveBeenCalled()
      expect(logged).not.toHaveBeenCalled()
      expect(reachedNext).toEqual([])
      // The server goes on answering.
      expect((await post('/api/analytics/view', '{"path":"/"}')).status).toBe(204)
    } finally {
      logged.mockRestore()
    }
  })

  it('leaves every other request to Next: another method, another path', async () => {
    expect((await fetch(`${base}/api/analytics/view`)).status).toBe(405)
    expect((await post('/api/analytics/view/', '{"path":"/"}')).status).toBe(405)
    expect((await post('/api/analytics', '{"path":"/"}')).status).toBe(405)
    expect(reachedNext).toEqual([
      'GET /api/analytics/view',
      'POST /api/analytics/view/',
      'POST /api/analytics',
    ])
    expect(recordView).not.toHaveBeenCalled()
  })
})

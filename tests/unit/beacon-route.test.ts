import { beforeEach, describe, expect, it, vi } from 'vitest'

import { unannouncedBody } from '../support/streams'

// POST /api/analytics/view as Next calls it (docs/analytics.md, "The beacon"): what it answers,
// and what it hands to after() to count once the answer has gone. The count is stood in for, and
// after() keeps its tasks, so a test sees whether a beacon would have been counted.

const recordView = vi.hoisted(() =>
  vi.fn<(view: unknown) => Promise<string>>(async () => 'counted'),
)
const afterTasks = vi.hoisted(() => [] as Array<() => unknown>)
vi.mock('@/lib/analytics', () => ({ recordView }))
vi.mock('next/server', async (original) => ({
  ...(await original<typeof import('next/server')>()),
  after: (task: () => unknown) => void afterTasks.push(task),
}))

const { POST } = await import('@/app/api/analytics/view/route')

const URL_ = 'http://127.0.0.1/api/analytics/view'
let visitor = 0

/** A beacon from a new visitor address each time, unless the headers give one. */
function post(body: BodyInit, headers: Record<string, string> = {}) {
  visitor += 1
  return POST(
    new Request(URL_, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Navegador/1.0',
        'x-forwarded-for': `198.51.100.${visitor}`,
        ...headers,
      },
      body,
      // A stream body needs it (Node's fetch).
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  )
}

/** Runs what the route left for after the answer, as Next does once it has been sent. */
async function afterTheAnswer() {
  const tasks = afterTasks.splice(0)
  for (const task of tasks) await task()
  return tasks.length
}

beforeEach(() => {
  afterTasks.length = 0
  recordView.mockClear()
})

describe('POST /api/analytics/view', () => {
  it('answers 204 with no body and no cookie, and counts the view once, after the answer', async () => {
    const response = await post(
      JSON.stringify({ path: '/calculadora', utm_campaign: 'lancamento', extra: 1 }),
      { 'x-forwarded-for': '203.0.113.9' },
    )
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(recordView, 'nothing counted before the answer').not.toHaveBeenCalled()
    expect(await afterTheAnswer()).toBe(1)
    expect(recordView).toHaveBeenCalledTimes(1)
    expect(recordView).toHaveBeenCalledWith({
      ip: '203.0.113.9',
      userAgent: 'Navegador/1.0',
      body: expect.objectContaining({
        path: '/calculadora',
        event: 'view',
        referrer: undefined,
        utm_source: undefined,
        utm_medium: undefined,
        utm_campaign: 'lancamento',
      }),
    })
  })

  it('counts the visitor as the trusted proxy saw them, not as they claim', async () => {
    await post('{"path":"/"}', { 'x-forwarded-for': '127.0.0.1, 203.0.113.10' })
    await afterTheAnswer()
    expect(recordView.mock.calls[0]![0]).toMatchObject({ ip: '203.0.113.10' })
  })

  it('refuses in Portuguese with JSON, counting nothing', async () => {
    const refused = async (response: Response) => ({
      status: response.status,
      type: response.headers.get('content-type'),
      cache: response.headers.get('cache-control'),
      error: ((await response.json()) as { error: string }).error,
    })
    expect(await refused(await post('{"path":"/"}', { 'content-type': 'text/plain' }))).toEqual({
      status: 415,
      type: 'application/json',
      cache: 'no-store',
      error: 'Envie a visita como application/json.',
    })
    for (const body of ['not json', '[1,2]', '{"page":"/"}']) {
      expect(await refused(await post(body)), body).toMatchObject({
        status: 400,
        error: 'Envie um objeto JSON com "path" (o caminho da página).',
      })
    }
    expect(await afterTheAnswer()).toBe(0)
    expect(recordView).not.toHaveBeenCalled()
  })

  it('refuses a body over 2 KB with 413, announced or not, without reading it whole', async () => {
    const big = JSON.stringify({ path: '/', pad: 'x'.repeat(3000) })
    expect((await post(big)).status).toBe(413)
    // No Content-Length: a stream of 30 chunks of 1 KB, abandoned once past the limit.
    let pulled = 0
    const chunks = unannouncedBody(30)
    const reader = chunks.getReader()
    const counted = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read()
        if (done) return controller.close()
        pulled += 1
        controller.enqueue(value)
      },
    })
    const response = await post(counted)
    expect(response.status).toBe(413)
    expect((await response.json()).error).toBe('A visita deve ter no máximo 2048 bytes.')
    expect(pulled, 'chunks read of 30').toBeLessThan(6)
    expect(await afterTheAnswer()).toBe(0)
    expect(recordView).not.toHaveBeenCalled()
  })

  it('answers a prefetch or prerender with 204 and no body, without counting it', async () => {
    for (const headers of <Array<Record<string, string>>>[
      { 'sec-purpose': 'prefetch' },
      { purpose: 'prerender' },
    ]) {
      const response = await post('{"path":"/"}', headers)
      expect(response.status).toBe(204)
      expect(await response.text()).toBe('')
    }
    expect(await afterTheAnswer()).toBe(0)
    expect(recordView).not.toHaveBeenCalled()
  })

  it('lets a visitor who left mid-body go: no count, no error thrown, no log line', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      // What Next's request body does when the client's connection closes before its end.
      const broken = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"path":"/"'))
          setTimeout(() => controller.error(new Error('aborted')), 10)
        },
      })
      const response = await post(broken)
      expect(response.status).toBe(400)
      expect(await afterTheAnswer()).toBe(0)
      expect(recordView).not.toHaveBeenCalled()
      expect(logged).not.toHaveBeenCalled()
      // The route goes on answering.
      expect((await post('{"path":"/"}')).status).toBe(204)
    } finally {
      logged.mockRestore()
    }
  })

  it('is routed for POST only (Next answers any other method 405)', async () => {
    const route = await import('@/app/api/analytics/view/route')
    expect(Object.keys(route).sort()).toEqual(['POST', 'dynamic'])
  })
})

import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { encodeSignatureHeader } from '@sanity/webhook'
import { NextRequest } from 'next/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The route's side effects, observed instead of performed: Next's cache and its after() queue
// only exist inside a running Next server.
const { revalidateTag, after, shareRevalidation } = vi.hoisted(() => ({
  revalidateTag: vi.fn(),
  after: vi.fn(),
  shareRevalidation: vi.fn(),
}))
vi.mock('next/cache', () => ({ revalidateTag }))
// The real comparison, observed: the signature check must go through it.
const { timingSafeEqual } = vi.hoisted(() => ({ timingSafeEqual: vi.fn() }))
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>()
  timingSafeEqual.mockImplementation(crypto.timingSafeEqual)
  return { ...crypto, default: { ...crypto, timingSafeEqual }, timingSafeEqual }
})
// Redis's part is tested on a real redis-server (tests/unit/shared-tags.test.ts); here, whether
// it took the publish or not.
vi.mock('@/lib/redis/connection.mjs', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/redis/connection.mjs')>()),
  shareRevalidation,
}))
vi.mock('next/server', async (importOriginal) => ({
  ...(await importOriginal<typeof import('next/server')>()),
  after,
}))

const SECRET = 'test-secret'
const URL = 'http://127.0.0.1:3102/api/revalidate'

/** The route module as a server started with this environment would load it. */
async function loadRoute(secret: string | undefined) {
  vi.resetModules()
  if (secret === undefined) delete process.env.SANITY_REVALIDATE_SECRET
  else process.env.SANITY_REVALIDATE_SECRET = secret
  return import('@/app/api/revalidate/route')
}

async function signed(body: string, { secret = SECRET, at = Date.now() } = {}) {
  return encodeSignatureHeader(body, at, secret)
}

function webhook(
  body: string | ReadableStream<Uint8Array>,
  signature?: string,
  idempotencyKey?: string,
) {
  return new NextRequest(URL, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'sanity-webhook-signature': signature } : {}),
      // Sanity's, one per delivery and the same on each redelivery (tests/support/sanity-webhook.mjs).
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    ...(typeof body === 'string' ? {} : { duplex: 'half' }),
  } as ConstructorParameters<typeof NextRequest>[1])
}

/**
 * Lets real I/O (the HMAC check runs on Web Crypto, in libuv's thread pool) progress until the
 * route sets its timer. Bounded by real time, not by a count of turns: on two loaded cores the
 * check took longer than 1000 turns of the event loop, and the test then failed on a timer not
 * yet set. Only setTimeout is faked, so performance.now() is the real clock.
 */
async function untilTimerSet(done: () => boolean = () => false) {
  const deadline = performance.now() + 10_000
  while (vi.getTimerCount() === 0 && !done() && performance.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** Calls the route, letting its eventual-consistency pause elapse without waiting for it. */
async function call(route: Awaited<ReturnType<typeof loadRoute>>, request: NextRequest) {
  let settled = false
  const pending = route.POST(request).finally(() => {
    settled = true
  })
  while (!settled) {
    // A refusal sets no timer at all: stop waiting for one once the answer is there.
    await untilTimerSet(() => settled)
    await vi.advanceTimersByTimeAsync(route.DEFAULT_CONSISTENCY_DELAY_MS)
    await new Promise((resolve) => setImmediate(resolve))
  }
  const response = await pending
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const claimChange = JSON.stringify({ _type: 'claim', _id: 'claim-accuracy' })

/** A local HTTP server on a free port, answering with `handler`. */
async function listen(handler: http.RequestListener) {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

// The first test loads the route and the libraries it imports: seconds on two loaded cores.
describe('POST /api/revalidate', { timeout: 30_000 }, () => {
  const savedSecret = process.env.SANITY_REVALIDATE_SECRET

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    revalidateTag.mockClear()
    after.mockClear()
    shareRevalidation.mockReset()
    shareRevalidation.mockResolvedValue(undefined)
    vi.spyOn(console, 'info').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
  })

  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
    vi.unstubAllEnvs()
    if (savedSecret === undefined) delete process.env.SANITY_REVALIDATE_SECRET
    else process.env.SANITY_REVALIDATE_SECRET = savedSecret
  })

  it('revalidates the tag of the changed type for a correctly signed call', async () => {
    const route = await loadRoute(SECRET)
    const result = await call(route, webhook(claimChange, await signed(claimChange)))

    expect(result).toEqual({
      status: 200,
      body: { revalidated: ['sanity:claim'], type: 'claim', id: 'claim-accuracy' },
    })
    expect(revalidateTag).toHaveBeenCalledExactlyOnceWith('sanity:claim', 'max')
    // ...and has the home page regenerated right away, after the response.
    expect(after).toHaveBeenCalledOnce()
  })

  it('uses the same tags as the content fetches', async () => {
    const route = await loadRoute(SECRET)
    for (const [type, tag] of [
      ['landingPage', 'sanity:landingPage'],
      ['siteSettings', 'sanity:siteSettings'],
    ]) {
      const body = JSON.stringify({ _type: type, _id: type })
      const result = await call(route, webhook(body, await signed(body)))
      expect(result.body.revalidated).toEqual([tag])
    }
  })

  it('waits for the Content Lake to become consistent before expiring anything', async () => {
    const route = await loadRoute(SECRET)
    const pending = route.POST(webhook(claimChange, await signed(claimChange)))
    await untilTimerSet()
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(route.DEFAULT_CONSISTENCY_DELAY_MS - 1)
    expect(revalidateTag).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect((await pending).status).toBe(200)
    expect(revalidateTag).toHaveBeenCalledOnce()
  })

  it('waits SANITY_WEBHOOK_CONSISTENCY_DELAY_MS instead when it is set (the end-to-end builds)', async () => {
    vi.stubEnv('SANITY_WEBHOOK_CONSISTENCY_DELAY_MS', '400')
    const route = await loadRoute(SECRET)
    const pending = route.POST(webhook(claimChange, await signed(claimChange)))
    await untilTimerSet()
    await vi.advanceTimersByTimeAsync(399)
    expect(revalidateTag).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect((await pending).status).toBe(200)
    expect(revalidateTag).toHaveBeenCalledOnce()
  })

  it('refuses a consistency delay that is not a whole number of ms from 0 to 10000 at start', async () => {
    for (const bad of ['-1', '10001', '1.5', 'três']) {
      vi.stubEnv('SANITY_WEBHOOK_CONSISTENCY_DELAY_MS', bad)
      await expect(loadRoute(SECRET)).rejects.toThrow(
        /SANITY_WEBHOOK_CONSISTENCY_DELAY_MS=.* must be a whole number from 0 to 10000/,
      )
    }
  })

  it('refuses a call without a signature with 401', async () => {
    const route = await loadRoute(SECRET)
    const result = await call(route, webhook(claimChange))
    expect(result.status).toBe(401)
    expect(revalidateTag).not.toHaveBeenCalled()
    expect(after).not.toHaveBeenCalled()
  })

  it('refuses a signature made with another secret with 401', async () => {
    const route = await loadRoute(SECRET)
    const result = await call(
      route,
      webhook(claimChange, await signed(claimChange, { secret: 'x' })),
    )
    expect(result).toEqual({ status: 401, body: { message: 'Invalid signature' } })
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('refuses a signature over another body with 401', async () => {
    const route = await loadRoute(SECRET)
    const other = JSON.stringify({ _type: 'siteSettings', _id: 'siteSettings' })
    const result = await call(route, webhook(claimChange, await signed(other)))
    expect(result.status).toBe(401)
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('refuses a malformed signature header, even on a body that is not JSON, with 401', async () => {
    const route = await loadRoute(SECRET)
    const result = await call(route, webhook('not json', 'v1=abc'))
    expect(result.status).toBe(401)
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('refuses a correctly signed call older than 5 minutes (a replay) with 401', async () => {
    const route = await loadRoute(SECRET)
    const sixMinutesAgo = Date.now() - 6 * 60 * 1000
    const result = await call(
      route,
      webhook(claimChange, await signed(claimChange, { at: sixMinutesAgo })),
    )
    expect(result).toEqual({ status: 401, body: { message: 'Stale signature timestamp' } })
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('refuses a timestamp more than 5 minutes in the future with 401', async () => {
    const route = await loadRoute(SECRET)
    const later = Date.now() + 6 * 60 * 1000
    const result = await call(route, webhook(claimChange, await signed(claimChange, { at: later })))
    expect(result.status).toBe(401)
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('accepts a timestamp just inside the 5-minute window', async () => {
    const route = await loadRoute(SECRET)
    const almostFive = Date.now() - route.MAX_SIGNATURE_AGE_MS + 10_000
    const result = await call(
      route,
      webhook(claimChange, await signed(claimChange, { at: almostFive })),
    )
    expect(result.status).toBe(200)
  })

  it('answers 500 and says why in the log when the secret is not configured', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const route = await loadRoute(undefined)
    const result = await call(route, webhook(claimChange, await signed(claimChange)))

    expect(result.status).toBe(500)
    expect(revalidateTag).not.toHaveBeenCalled()
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('SANITY_REVALIDATE_SECRET is not set'),
    )
  })

  it('answers 200 and revalidates nothing for a type the site does not show', async () => {
    const route = await loadRoute(SECRET)
    const body = JSON.stringify({ _type: 'sanity.imageAsset', _id: 'image-1' })
    const result = await call(route, webhook(body, await signed(body)))
    expect(result.status).toBe(200)
    expect(result.body.revalidated).toEqual([])
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('answers 400 for a signed body without _type (a webhook projection missing it)', async () => {
    const route = await loadRoute(SECRET)
    const body = JSON.stringify({ _id: 'claim-accuracy' })
    const result = await call(route, webhook(body, await signed(body)))
    expect(result.status).toBe(400)
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('answers 400 for a correctly signed body that is not JSON', async () => {
    const route = await loadRoute(SECRET)
    const result = await call(route, webhook('not json', await signed('not json')))
    expect(result.status).toBe(400)
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('answers 413 to a body over 64 KB announced by its length, before reading it', async () => {
    const route = await loadRoute(SECRET)
    const big = JSON.stringify({ _type: 'claim', pad: 'x'.repeat(70 * 1024) })
    const result = await call(route, webhook(big, await signed(big)))
    expect(result.status).toBe(413)
    expect(revalidateTag).not.toHaveBeenCalled()
  })

  it('answers 413 to a streamed body as soon as it passes 64 KB, without reading the rest', async () => {
    const route = await loadRoute(SECRET)
    let pulled = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(16 * 1024).fill(120))
      },
    })
    const result = await call(route, webhook(endless, 't=1,v1=x'))
    expect(result.status).toBe(413)
    // 64 KB is four 16 KB chunks: stopped at the fifth, never read to the end.
    expect(pulled).toBeLessThanOrEqual(6)
  })

  it('compares the signature in constant time (node:crypto timingSafeEqual)', async () => {
    timingSafeEqual.mockClear()
    const { checkSignature } = await import('@/lib/webhook/signature')
    const header = await signed(claimChange)
    expect(await checkSignature(claimChange, header, SECRET)).toMatchObject({ valid: true })
    expect(await checkSignature(claimChange, header, 'other')).toMatchObject({ valid: false })
    expect(timingSafeEqual).toHaveBeenCalledTimes(2)
  })

  it('answers a replayed delivery (same t and v1) with 200 without revalidating again', async () => {
    const route = await loadRoute(SECRET)
    const signature = await signed(claimChange)
    const first = await call(route, webhook(claimChange, signature))
    expect(first.status).toBe(200)
    const replay = await call(route, webhook(claimChange, signature))
    expect(replay).toEqual({
      status: 200,
      body: { revalidated: [], message: 'Already handled' },
    })
    expect(revalidateTag).toHaveBeenCalledOnce()
    // A new delivery of the same change (Sanity signs each with its own time) is not a replay.
    const again = await call(
      route,
      webhook(claimChange, await signed(claimChange, { at: Date.now() + 1 })),
    )
    expect(again.status).toBe(200)
    expect(revalidateTag).toHaveBeenCalledTimes(2)
  })

  it('knows a redelivery by its idempotency-key, whether Sanity signed it again or not', async () => {
    const route = await loadRoute(SECRET)
    const key = 'delivery-1'
    const signature = await signed(claimChange)
    expect((await call(route, webhook(claimChange, signature, key))).status).toBe(200)
    const handled = { status: 200, body: { revalidated: [], message: 'Already handled' } }
    // Redelivered as it was: the same t, v1 and key.
    expect(await call(route, webhook(claimChange, signature, key))).toEqual(handled)
    // Redelivered signed anew (Sanity signs every attempt): its own t and v1, the same key.
    const resigned = await signed(claimChange, { at: Date.now() + 1 })
    expect(await call(route, webhook(claimChange, resigned, key))).toEqual(handled)
    expect(revalidateTag).toHaveBeenCalledOnce()
    // Another delivery (another publish of the same document) has a key of its own.
    const next = await signed(claimChange, { at: Date.now() + 2 })
    expect((await call(route, webhook(claimChange, next, 'delivery-2'))).status).toBe(200)
    expect(revalidateTag).toHaveBeenCalledTimes(2)
    // A captured request sent again with another key is still the same request.
    expect(await call(route, webhook(claimChange, next, 'delivery-3'))).toEqual(handled)
    // ...and did not take that key: the delivery that has it is handled.
    const third = await signed(claimChange, { at: Date.now() + 3 })
    expect((await call(route, webhook(claimChange, third, 'delivery-3'))).status).toBe(200)
    expect(revalidateTag).toHaveBeenCalledTimes(3)
  })

  it('with Redis, answers 200 only once Redis has the publish', async () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:1')
    const route = await loadRoute(SECRET)
    const result = await call(route, webhook(claimChange, await signed(claimChange)))
    expect(result.status).toBe(200)
    expect(shareRevalidation).toHaveBeenCalledExactlyOnceWith(['sanity:claim'])
    expect(revalidateTag).toHaveBeenCalledOnce()
  })

  it('with Redis not taking the publish, revalidates here and answers 503 with a reason, and Sanity’s retry of it does the work', async () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:1')
    shareRevalidation.mockRejectedValue(new Error('Redis is not connected (tags)'))
    const route = await loadRoute(SECRET)
    const signature = await signed(claimChange)
    const result = await call(route, webhook(claimChange, signature, 'delivery-503'))
    expect(result).toEqual({
      status: 503,
      body: {
        message: expect.stringMatching(/this instance only/),
        reason: 'Redis is not connected (tags)',
        revalidatedHere: ['sanity:claim'],
      },
    })
    expect(revalidateTag).toHaveBeenCalledExactlyOnceWith('sanity:claim', 'max')
    // The same delivery again (a retry, not a replay: it failed), now that Redis takes it, as
    // Sanity sends it: signed anew, with the first attempt's idempotency-key.
    shareRevalidation.mockResolvedValue(undefined)
    const resigned = await signed(claimChange, { at: Date.now() + 1 })
    const retry = await call(route, webhook(claimChange, resigned, 'delivery-503'))
    expect(retry.status).toBe(200)
    expect(revalidateTag).toHaveBeenCalledTimes(2)
    // Or as it was, unsigned again: handled now, so a repeat.
    const repeat = await call(route, webhook(claimChange, signature, 'delivery-503'))
    expect(repeat.body).toMatchObject({ message: 'Already handled' })
    expect(revalidateTag).toHaveBeenCalledTimes(2)
  })

  it('warms the changed page on this instance’s own origin, never the public host', async () => {
    vi.stubEnv('__NEXT_PRIVATE_ORIGIN', 'http://127.0.0.1:3999')
    const route = await loadRoute(SECRET)
    const request = new NextRequest('https://www.vigia.example/api/revalidate', {
      method: 'POST',
      body: claimChange,
      headers: { 'sanity-webhook-signature': await signed(claimChange) },
    })
    await call(route, request)
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('ok'))
    await (after.mock.calls[0]![0] as () => Promise<void>)()
    expect(fetchSpy.mock.calls.map(([url]) => String(url))).toEqual(['http://127.0.0.1:3999/'])
  })

  it('never follows a redirect from the warm-up, so the internal secret stays on this server', async () => {
    // A redirect document's path answers 308 to an allowed host (wa.me, say): here a second
    // local server stands for that host and records what reaches it.
    const elsewhere: Array<string | undefined> = []
    const outside = await listen((request, response) => {
      elsewhere.push(request.headers['x-internal-secret'] as string | undefined)
      response.end('outside')
    })
    const warmed: Array<{ path?: string; secret?: string }> = []
    const self = await listen((request, response) => {
      warmed.push({
        path: request.url,
        secret: request.headers['x-internal-secret'] as string | undefined,
      })
      response.writeHead(308, { location: `${outside.origin}/5511999998888` }).end()
    })
    try {
      vi.stubEnv('__NEXT_PRIVATE_ORIGIN', self.origin)
      vi.stubEnv('INTERNAL_API_SECRET', 'the-servers-own-internal-secret')
      const route = await loadRoute(SECRET)
      await call(route, webhook(claimChange, await signed(claimChange)))
      vi.useRealTimers()
      await (after.mock.calls[0]![0] as () => Promise<void>)()
      // The page was asked for, with the secret, on this server...
      expect(warmed).toEqual([{ path: '/', secret: 'the-servers-own-internal-secret' }])
      // ...and its redirect was not followed: nothing at all reached the other host.
      expect(elsewhere).toEqual([])
    } finally {
      await Promise.all([self.close(), outside.close()])
    }
  })

  /** A signed publish of this change over the bundled dataset, and the tags it revalidated. */
  async function publishOf(change: Record<string, string>) {
    const route = await loadRoute(SECRET)
    const body = JSON.stringify(change)
    const result = await call(route, webhook(body, await signed(body)))
    expect(result.status).toBe(200)
    return { result, tags: revalidateTag.mock.calls.map(([tag]) => tag as string) }
  }

  it('for an article, revalidates its own page and the lists that show it, never the type as a whole', async () => {
    const { result, tags } = await publishOf({
      _type: 'article',
      _id: 'article-protocolo-de-resposta-apos-alerta',
      slug: 'protocolo-de-resposta-apos-alerta',
    })
    expect(tags).toContain('sanity:doc:article:protocolo-de-resposta-apos-alerta')
    expect(tags).toContain('sanity:article')
    // The bundled category has two articles: both are in each other's related list.
    expect(tags).toContain('sanity:related:category-fadiga-e-seguranca')
    expect(tags.filter((tag) => tag.startsWith('sanity:doc:'))).toHaveLength(1)
    expect(result.body.revalidated).toEqual(tags)
  })

  it('for a category, revalidates its articles’ own pages, not the other articles', async () => {
    const { tags } = await publishOf({
      _type: 'category',
      _id: 'category-lgpd-e-privacidade',
      slug: 'lgpd-e-privacidade',
    })
    // The bundled dataset's one article in that category; the other two are in another.
    expect(tags.filter((tag) => tag.startsWith('sanity:doc:'))).toEqual([
      'sanity:doc:article:lgpd-camera-na-cabine',
    ])
    expect(tags).toContain('sanity:related:category-lgpd-e-privacidade')
    expect(tags).not.toContain('sanity:related:category-fadiga-e-seguranca')
  })

  it('purges the CDN at once and warms the changed pages, the routing table and the page first, two at a time', async () => {
    vi.stubEnv('__NEXT_PRIVATE_ORIGIN', 'http://127.0.0.1:3999')
    vi.stubEnv('CDN_PURGE_URL', 'https://api.cloudflare.com/client/v4/zones/z/purge_cache')
    const route = await loadRoute(SECRET)
    const body = JSON.stringify({
      _type: 'article',
      _id: 'article-protocolo-de-resposta-apos-alerta',
      slug: 'protocolo-de-resposta-apos-alerta',
    })
    await call(route, webhook(body, await signed(body)))
    vi.useRealTimers()
    let open = 0
    let most = 0
    const events: string[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input)
      events.push(`start ${url}`)
      open++
      most = Math.max(most, open)
      await new Promise((resolve) => setTimeout(resolve, 20))
      open--
      events.push(`end ${url}`)
      return new Response('{}')
    })
    await (after.mock.calls[0]![0] as () => Promise<void>)()
    const warmed = events.filter((event) => event.startsWith('start http://127.0.0.1:3999'))
    expect(warmed[0]).toBe('start http://127.0.0.1:3999/api/redirects')
    expect(warmed).toContain(
      'start http://127.0.0.1:3999/conteudos/protocolo-de-resposta-apos-alerta',
    )
    expect(warmed.length).toBeLessThanOrEqual(route.WARM_LIMIT)
    // The purge went out before the warm-up was over (at once, not after it).
    const purgeAt = events.indexOf('start https://api.cloudflare.com/client/v4/zones/z/purge_cache')
    expect(purgeAt).toBeGreaterThanOrEqual(0)
    expect(purgeAt).toBeLessThan(events.indexOf(`end ${warmed.at(-1)!.slice('start '.length)}`))
    // One purge request, plus at most two pages at a time.
    expect(most).toBeLessThanOrEqual(1 + route.WARM_CONCURRENCY)
  })
})

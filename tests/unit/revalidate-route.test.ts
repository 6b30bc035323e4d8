import { encodeSignatureHeader } from '@sanity/webhook'
import { NextRequest } from 'next/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The route's side effects, observed instead of performed: Next's cache and its after() queue
// only exist inside a running Next server.
const { revalidateTag, after } = vi.hoisted(() => ({ revalidateTag: vi.fn(), after: vi.fn() }))
vi.mock('next/cache', () => ({ revalidateTag }))
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

function webhook(body: string, signature?: string) {
  return new NextRequest(URL, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'sanity-webhook-signature': signature } : {}),
    },
  })
}

/** Lets real I/O (the HMAC check runs on Web Crypto) progress until the route sets its timer. */
async function untilTimerSet() {
  for (let i = 0; i < 1000 && vi.getTimerCount() === 0; i++) {
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
    await untilTimerSet()
    await vi.advanceTimersByTimeAsync(route.CONSISTENCY_DELAY_MS)
    await new Promise((resolve) => setImmediate(resolve))
  }
  const response = await pending
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const claimChange = JSON.stringify({ _type: 'claim', _id: 'claim-accuracy' })

describe('POST /api/revalidate', () => {
  const savedSecret = process.env.SANITY_REVALIDATE_SECRET

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    revalidateTag.mockClear()
    after.mockClear()
    vi.spyOn(console, 'info').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
  })

  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
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
    await vi.advanceTimersByTimeAsync(route.CONSISTENCY_DELAY_MS - 1)
    expect(revalidateTag).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect((await pending).status).toBe(200)
    expect(revalidateTag).toHaveBeenCalledOnce()
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
})

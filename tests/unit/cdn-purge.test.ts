import { afterEach, describe, expect, it, vi } from 'vitest'

import { purgeCdnUrls, purgePublicPages } from '@/lib/cdn/purge'

import { CLOUDFLARE_FREE, startPurgeDouble } from '../support/purge-double.mjs'

const ENDPOINT = 'https://api.cloudflare.com/client/v4/zones/zone/purge_cache'

function fakeFetch(...answers: Array<number | Error>) {
  const calls: Array<{ url: string; init: RequestInit }> = []
  const impl = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} })
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!
    if (answer instanceof Error) throw answer
    return new Response('{}', { status: answer })
  }) as typeof fetch
  return { impl, calls }
}

afterEach(() => vi.restoreAllMocks())

describe('purgeCdnUrls', () => {
  it('POSTs the URLs in Cloudflare’s purge-by-URL shape with the bearer token', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const { impl, calls } = fakeFetch(200)
    const result = await purgePublicPages('https://vigia.example', {
      endpoint: ENDPOINT,
      token: 'tok',
      fetchImpl: impl,
    })
    expect(result).toEqual({ ok: true, attempts: 1 })
    expect(calls[0]!.url).toBe(ENDPOINT)
    expect(calls[0]!.init.method).toBe('POST')
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer tok')
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      files: ['https://vigia.example/', 'https://vigia.example/sitemap.xml'],
    })
  })

  it('adds the pages it is given, each once', async () => {
    const { impl, calls } = fakeFetch(200)
    await purgePublicPages('https://vigia.example', {
      endpoint: ENDPOINT,
      token: 'tok',
      fetchImpl: impl,
      paths: ['/privacidade', '/lgpd', '/'],
    })
    expect(JSON.parse(String(calls[0]!.init.body)).files).toEqual([
      'https://vigia.example/',
      'https://vigia.example/sitemap.xml',
      'https://vigia.example/privacidade',
      'https://vigia.example/lgpd',
    ])
  })

  it('retries a 5xx and a network error, then succeeds', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const { impl, calls } = fakeFetch(503, new TypeError('fetch failed'), 200)
    const result = await purgeCdnUrls(['https://vigia.example/'], {
      endpoint: ENDPOINT,
      fetchImpl: impl,
      backoffMs: 1,
    })
    expect(result).toEqual({ ok: true, attempts: 3 })
    expect(calls).toHaveLength(3)
  })

  it('gives up on a 403 at once and logs why, without throwing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { impl, calls } = fakeFetch(403)
    const result = await purgeCdnUrls(['https://vigia.example/'], {
      endpoint: ENDPOINT,
      fetchImpl: impl,
      backoffMs: 1,
    })
    expect(result).toMatchObject({ ok: false, attempts: 1 })
    expect(calls).toHaveLength(1)
    expect(error.mock.calls[0]![0]).toMatch(/could not purge .* HTTP 403/)
  })

  it('logs the failure after the last attempt when the front keeps failing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { impl, calls } = fakeFetch(500)
    const result = await purgeCdnUrls(['https://vigia.example/'], {
      endpoint: ENDPOINT,
      fetchImpl: impl,
      backoffMs: 1,
      attempts: 3,
    })
    expect(result).toMatchObject({ ok: false, attempts: 3 })
    expect(calls).toHaveLength(3)
    expect(error).toHaveBeenCalledOnce()
  })

  it('does nothing when no purge endpoint is configured', async () => {
    const { impl, calls } = fakeFetch(200)
    expect(await purgeCdnUrls(['https://vigia.example/'], { fetchImpl: impl })).toEqual({
      ok: true,
      attempts: 0,
    })
    expect(calls).toHaveLength(0)
  })
})

describe('purges against a double that answers like Cloudflare (tests/support/purge-double.mjs)', () => {
  it('sends 250 URLs and 2 prefixes in requests of at most 100 items, with the token', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const purge = await startPurgeDouble({ port: 0, token: 'tok' })
    try {
      const paths = Array.from({ length: 248 }, (_, index) => `/conteudos/artigo-${index}`)
      const result = await purgePublicPages('https://vigia.example', {
        endpoint: purge.endpoint,
        token: 'tok',
        paths,
        prefixes: ['/conteudos/', '/'],
      })
      expect(result).toEqual({ ok: true, attempts: 4 })
      const sent = purge.purges()
      expect(sent.map((request) => [request.status, request.kind, request.items.length])).toEqual([
        [200, 'files', 100],
        [200, 'files', 100],
        [200, 'files', 50],
        [200, 'prefixes', 2],
      ])
      expect(sent[3]!.items).toEqual(['vigia.example/conteudos/', 'vigia.example/'])
    } finally {
      await purge.close()
    }
  })

  it('refuses more than 100 items in one request, and a wrong token (never retried)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const purge = await startPurgeDouble({ port: 0, token: 'tok' })
    try {
      const tooMany = await fetch(purge.endpoint, {
        method: 'POST',
        headers: { authorization: 'Bearer tok' },
        body: JSON.stringify({ files: Array.from({ length: 101 }, (_, i) => `https://x/${i}`) }),
      })
      expect(tooMany.status).toBe(400)
      const result = await purgeCdnUrls(['https://vigia.example/'], {
        endpoint: purge.endpoint,
        token: 'wrong',
        backoffMs: 1,
      })
      expect(result).toMatchObject({ ok: false, attempts: 1 })
      expect(error.mock.calls[0]![0]).toMatch(/HTTP 403/)
    } finally {
      await purge.close()
    }
  })

  it('waits out a 429 for as long as Retry-After says, then purges', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const purge = await startPurgeDouble({ port: 0, token: 'tok', ratePerMinute: 1 })
    try {
      await purgeCdnUrls(['https://vigia.example/a'], { endpoint: purge.endpoint, token: 'tok' })
      const sleeps: number[] = []
      const result = await purgeCdnUrls(['https://vigia.example/b'], {
        endpoint: purge.endpoint,
        token: 'tok',
        backoffMs: 10,
        // Rather than waiting out the double's minute, the wait is recorded and the double reset.
        sleep: async (ms) => {
          sleeps.push(ms)
          purge.reset()
        },
      })
      expect(result).toEqual({ ok: true, attempts: 2 })
      // Retry-After is in seconds: up to a minute, never the 10 ms backoff.
      expect(sleeps[0]).toBeGreaterThanOrEqual(1000)
    } finally {
      await purge.close()
    }
  })

  it('takes Cloudflare Free’s rate: a bucket of 25 requests, then one every 12 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const purge = await startPurgeDouble({ port: 0, token: 'tok', ...CLOUDFLARE_FREE })
    try {
      const once = () =>
        fetch(purge.endpoint, {
          method: 'POST',
          headers: { authorization: 'Bearer tok' },
          body: JSON.stringify({ files: ['https://vigia.example/'] }),
        })
      const statuses: number[] = []
      for (let i = 0; i < 26; i++) statuses.push((await once()).status)
      expect(statuses).toEqual([...Array(25).fill(200), 429])
      const refused = await once()
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('12')
      // 5 a minute: one token back after 12 s, not two.
      vi.advanceTimersByTime(12_000)
      expect((await once()).status).toBe(200)
      expect((await once()).status).toBe(429)
    } finally {
      vi.useRealTimers()
      await purge.close()
    }
  })
})

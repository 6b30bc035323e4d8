import { afterEach, describe, expect, it, vi } from 'vitest'

import { purgeCdnUrls, purgePublicPages } from '@/lib/cdn/purge'

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

import { afterEach, describe, expect, it, vi } from 'vitest'

import { createRedirectMapCache, redirectFor } from '@/lib/redirect-map'

const MAP = { '/onibus': { to: '/p/onibus-rodoviarios', permanent: true } }

describe("the proxy's copy of the redirect map", () => {
  afterEach(() => vi.restoreAllMocks())

  it('asks the server at most once per second, one request at a time', async () => {
    const load = vi.fn(async () => MAP)
    const current = createRedirectMapCache(load, 1000)
    const now = Date.now()
    expect(await Promise.all([current(now), current(now), current(now)])).toEqual([MAP, MAP, MAP])
    expect(load).toHaveBeenCalledTimes(1)
    expect(await current(now + 500)).toEqual(MAP)
    expect(load).toHaveBeenCalledTimes(1)
    await current(now + 5000)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('keeps the last good copy when a refresh fails, and says so once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let fail = false
    const current = createRedirectMapCache(async () => {
      if (fail) throw new Error('HTTP 500')
      return MAP
    }, 0)
    expect(await current()).toEqual(MAP)
    fail = true
    expect(await current()).toEqual(MAP)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toMatch(/could not refresh the redirect map: Error: HTTP 500/)
  })

  it('means no redirects, not an error, when it never loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const current = createRedirectMapCache(async () => {
      throw new Error('ECONNREFUSED')
    })
    expect(await current()).toEqual({})
  })
})

describe('redirects of campaign pages outside their window', () => {
  const start = Date.parse('2026-12-01T12:00:00Z')
  const end = Date.parse('2026-12-03T21:00:00Z')
  const map = {
    '/p/feira': {
      to: '/',
      permanent: false,
      window: { visibleFrom: '2026-12-01T12:00:00Z', visibleUntil: '2026-12-03T21:00:00Z' },
    },
    '/onibus': { to: '/p/onibus-rodoviarios', permanent: true },
  }

  it('apply before the start and from the end, never while the page is live', () => {
    expect(redirectFor(map, '/p/feira', start - 1)?.to).toBe('/')
    expect(redirectFor(map, '/p/feira', start)).toBeUndefined()
    expect(redirectFor(map, '/p/feira', end - 1)).toBeUndefined()
    expect(redirectFor(map, '/p/feira', end)?.to).toBe('/')
  })

  it('leave plain redirects as they are, and match no inherited key', () => {
    expect(redirectFor(map, '/onibus', start)?.permanent).toBe(true)
    expect(redirectFor(map, '/constructor')).toBeUndefined()
  })
})

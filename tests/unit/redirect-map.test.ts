import { afterEach, describe, expect, it, vi } from 'vitest'

import { createRedirectMapCache } from '@/lib/redirect-map'

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

import { describe, expect, it, vi } from 'vitest'

import { refreshing } from '@/lib/refreshing'

describe('refreshing (lib/refreshing.ts)', () => {
  it('loads once for readers at the same time, and again only once the value is old', async () => {
    let time = 0
    const load = vi.fn(async () => time)
    const value = refreshing(load, { ttlMs: 100, stale: 'wait', now: () => time })
    expect(await Promise.all([value.get(), value.get(), value.get()])).toEqual([0, 0, 0])
    time = 99
    expect(await value.get()).toBe(0)
    time = 100
    expect(await value.get()).toBe(100)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it("'serve' answers the old value at once and refreshes behind it; 'wait' waits", async () => {
    let time = 0
    let release = () => {}
    let next = 'a'
    const load = () =>
      new Promise<string>((resolve) => {
        const value = next
        release = () => resolve(value)
      })
    const served = refreshing(load, { ttlMs: 10, stale: 'serve', now: () => time })
    const first = served.get()
    release()
    expect(await first).toBe('a')
    time = 10
    next = 'b'
    expect(await served.get()).toBe('a')
    release()
    await vi.waitFor(() => expect(served.peek()).toBe('b'))

    const waited = refreshing(load, { ttlMs: 10, stale: 'wait', now: () => time })
    next = 'c'
    const pending = waited.get()
    release()
    expect(await pending).toBe('c')
  })

  it('keeps the value it had when a load fails, says so, and is undefined before any success', async () => {
    let time = 0
    let fail = true
    const onError = vi.fn()
    const value = refreshing(
      async () => {
        if (fail) throw new Error('away')
        return 'ok'
      },
      { ttlMs: 10, stale: 'wait', now: () => time, onError },
    )
    expect(await value.get()).toBeUndefined()
    time = 10
    fail = false
    expect(await value.get()).toBe('ok')
    time = 20
    fail = true
    expect(await value.get()).toBe('ok')
    expect(onError).toHaveBeenCalledTimes(2)
  })
})

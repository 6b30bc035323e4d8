import { afterEach, describe, expect, it, vi } from 'vitest'

// The Redis fallback's period (lib/redis/connection.mjs): 15 s in production, which
// docs/deploying.md promises; REDIS_FALLBACK_REVALIDATE_SECONDS shortens it for the Redis fault
// tests only (scripts/e2e-builds.cjs), so this pins the value a deployment gets.

async function load() {
  vi.resetModules()
  return import('@/lib/redis/connection.mjs')
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the Redis fallback period', () => {
  it('is 15 s when REDIS_FALLBACK_REVALIDATE_SECONDS is unset (production)', async () => {
    vi.stubEnv('REDIS_FALLBACK_REVALIDATE_SECONDS', undefined)
    const connection = await load()
    expect(connection.DEFAULT_FALLBACK_REVALIDATE_SECONDS).toBe(15)
    expect(connection.FALLBACK_REVALIDATE_SECONDS).toBe(15)
  })

  it('is what REDIS_FALLBACK_REVALIDATE_SECONDS says when set (the end-to-end tests)', async () => {
    vi.stubEnv('REDIS_FALLBACK_REVALIDATE_SECONDS', '4')
    expect((await load()).FALLBACK_REVALIDATE_SECONDS).toBe(4)
  })

  it('refuses a period that is not a whole number from 1 to 15 at start', async () => {
    for (const bad of ['0', '16', '1.5', 'quinze']) {
      vi.stubEnv('REDIS_FALLBACK_REVALIDATE_SECONDS', bad)
      await expect(load()).rejects.toThrow(
        /REDIS_FALLBACK_REVALIDATE_SECONDS=.* must be a whole number from 1 to 15/,
      )
    }
  })
})

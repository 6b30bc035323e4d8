import fs from 'node:fs'
import net from 'node:net'

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { connect, type Connection } from '@/lib/redis/connection.mjs'

import { missingTools, startRedis, tempDir } from '../../scripts/lib/front-stack.cjs'

// The rate limits of lib/security/rate-limit.ts on a real redis-server: two copies of the module
// (two instances of the site, each with its own in-memory counters) share one allowance per
// visitor address, for the demo form and for review-link lookups.

const missing = missingTools(['redis-server'])
if (missing && process.env.CI) throw new Error(missing)

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

describe.skipIf(Boolean(missing))('rate limits counted in Redis', { timeout: 30_000 }, () => {
  let dir: string
  let redis: { url: string; stop: () => Promise<void> }
  let admin: Connection

  /** A fresh copy of the module, as another instance of the site would load it, once connected. */
  async function instance() {
    vi.resetModules()
    vi.stubEnv('REDIS_URL', redis.url)
    vi.stubEnv('REDIS_KEY_PREFIX', 'limits-test:')
    vi.stubEnv('DEMO_RATE_LIMIT_PER_MINUTE', '2')
    vi.stubEnv('DEMO_RATE_LIMIT_PER_CONTACT_PER_HOUR', '1000')
    vi.stubEnv('REVIEW_RATE_LIMIT_PER_MINUTE', '3')
    vi.stubEnv('REVIEW_RATE_LIMIT_GLOBAL_PER_MINUTE', '1000')
    const limits = await import('@/lib/security/rate-limit')
    const { getRedis, isUsable } = await import('@/lib/redis/connection.mjs')
    await vi.waitFor(() => expect(isUsable(getRedis()!)).toBe(true), { timeout: 5000 })
    return limits
  }

  beforeAll(async () => {
    dir = tempDir('vigia-rate-limit-')
    redis = await startRedis({ port: await freePort(), dir })
    admin = connect(redis.url)
    await vi.waitFor(() => expect(admin.client.isReady).toBe(true), { timeout: 5000 })
  }, 30_000)

  afterAll(async () => {
    const { getRedis } = await import('@/lib/redis/connection.mjs')
    await getRedis()
      ?.client.quit()
      .catch(() => {})
    await admin?.client.quit().catch(() => {})
    await redis?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  afterEach(() => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
  })

  it('holds a visitor to one demo-request allowance across instances', async () => {
    const a = await instance()
    const request = (email: string) => ({ ip: '203.0.113.7', phone: null, email })
    expect(await a.checkDemoRequestLimits(request('1@b.com.br'))).toBe('ok')
    expect(await a.checkDemoRequestLimits(request('2@b.com.br'))).toBe('ok')
    // Another instance, whose memory has counted nothing: Redis has.
    const b = await instance()
    expect(await b.checkDemoRequestLimits(request('3@b.com.br'))).toBe('address')
    expect(await b.checkDemoRequestLimits({ ...request('4@b.com.br'), ip: '203.0.113.8' })).toBe(
      'ok',
    )
    expect(await admin.client.keys('limits-test:demo-request*')).not.toEqual([])
  })

  it('holds a visitor to one review-link allowance across instances', async () => {
    const a = await instance()
    for (let i = 0; i < 3; i++) expect(await a.checkReviewLinkLimits('198.51.100.9')).toBe('ok')
    expect(await a.checkReviewLinkLimits('198.51.100.9')).toBe('address')
    const b = await instance()
    expect(await b.checkReviewLinkLimits('198.51.100.9')).toBe('address')
    expect(await b.checkReviewLinkLimits('198.51.100.10')).toBe('ok')
    expect(await admin.client.keys('limits-test:review-link*')).not.toEqual([])
  })
})

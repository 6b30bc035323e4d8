import fs from 'node:fs'
import net from 'node:net'

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import { RECHECK_AFTER_MS, SharedTags } from '@/lib/cache/cache-handler.mjs'
import { connect, type Connection } from '@/lib/redis/connection.mjs'

import { missingTools, startRedis, tempDir } from '../../scripts/lib/front-stack.cjs'

// How publishes travel between instances (lib/cache/cache-handler.mjs), on a real redis-server:
// each SharedTags below is one instance, with its own connection and its own tag manifest.

const missing = missingTools(['redis-server'])
if (missing && process.env.CI) throw new Error(missing)

type Manifest = Map<string, { stale?: number; expired?: number }>
type Instance = { tags: SharedTags; manifest: Manifest; conn: Connection }

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function ready(conn: Connection) {
  await vi.waitFor(() => expect(conn.client.isReady).toBe(true), { timeout: 5000 })
}

describe.skipIf(Boolean(missing))('publishes shared through Redis', { timeout: 30_000 }, () => {
  let dir: string
  let redis: { url: string; stop: () => Promise<void> }
  let admin: Connection
  const instances: Instance[] = []
  const KEY = 'vigia:tag-versions'

  async function instance(): Promise<Instance> {
    const conn = connect(redis.url)
    await ready(conn)
    const manifest: Manifest = new Map()
    const tags = new SharedTags(conn, { manifest, interval: false })
    instances.push({ tags, manifest, conn })
    return { tags, manifest, conn }
  }

  beforeAll(async () => {
    dir = tempDir('vigia-shared-tags-')
    redis = await startRedis({ port: await freePort(), dir })
    admin = connect(redis.url)
    await ready(admin)
  }, 30_000)

  afterAll(async () => {
    await admin?.client.quit().catch(() => {})
    await redis?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  beforeEach(async () => {
    await admin.client.flushAll()
    vi.spyOn(console, 'info').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
  })

  afterEach(async () => {
    for (const { tags, conn } of instances.splice(0)) {
      tags.stop()
      await conn.client.quit().catch(() => {})
    }
    vi.restoreAllMocks()
  })

  it('stores a version per tag, never a time, and the other instance marks the tag stale by its own clock', async () => {
    const a = await instance()
    const b = await instance()
    await b.tags.sync()
    expect(b.manifest.get('sanity:claim')).toBeUndefined()

    await a.tags.share(['sanity:claim'])
    expect(await admin.client.hGet(KEY, 'sanity:claim')).toBe('1')

    const before = Date.now()
    await b.tags.sync()
    const stale = b.manifest.get('sanity:claim')?.stale ?? 0
    // B's own clock at the moment it learned: whatever A's clock said, any page B rendered
    // before this moment is stale.
    expect(stale).toBeGreaterThanOrEqual(before)
    expect(stale).toBeLessThanOrEqual(Date.now())
    // Learned once: a second read of the same version changes nothing.
    b.manifest.set('sanity:claim', { stale: 1 })
    await b.tags.sync()
    expect(b.manifest.get('sanity:claim')?.stale).toBe(1)
  })

  it('a write-back after an outage never lowers a newer version written in between', async () => {
    const a = await instance()
    const b = await instance()
    await a.tags.sync()
    await b.tags.sync()
    await b.tags.share(['sanity:claim'])
    await a.tags.sync()
    expect(await admin.client.hGet(KEY, 'sanity:claim')).toBe('1')

    // A revalidated while it could not reach Redis: its webhook answered 503 and it keeps the
    // tag to count. Meanwhile B publishes twice more.
    a.tags.pending.add('sanity:claim')
    await b.tags.share(['sanity:claim'])
    await b.tags.share(['sanity:claim'])
    expect(await admin.client.hGet(KEY, 'sanity:claim')).toBe('3')

    // A is back: its write-back raises the version, it never sets it back to what A knew.
    await a.tags.sync()
    expect(await admin.client.hGet(KEY, 'sanity:claim')).toBe('4')
    expect(a.tags.pending.size).toBe(0)
    // B sees a newer version and marks the tag stale once more.
    b.manifest.clear()
    await b.tags.sync()
    expect(b.manifest.get('sanity:claim')?.stale).toBeGreaterThan(0)
  })

  it('two late writes racing each other both count', async () => {
    const a = await instance()
    const b = await instance()
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).tags.share(['sanity:landingPage'])),
    )
    expect(await admin.client.hGet(KEY, 'sanity:landingPage')).toBe('10')
  })

  it('an instance that starts marks every tag ever revalidated stale, once', async () => {
    const a = await instance()
    await a.tags.share(['sanity:claim', 'sanity:siteSettings'])
    const fresh = await instance()
    await fresh.tags.sync()
    expect([...fresh.manifest.keys()].sort()).toEqual(['sanity:claim', 'sanity:siteSettings'])
    fresh.manifest.clear()
    await fresh.tags.sync()
    expect(fresh.manifest.size).toBe(0)
  })

  it('a flushed hash is noticed: the next publish reaches the others, whatever the old versions', async () => {
    const a = await instance()
    const b = await instance()
    for (let i = 0; i < 3; i++) await a.tags.share(['sanity:claim'])
    await b.tags.sync()
    b.manifest.clear()
    await admin.client.flushAll()
    await b.tags.sync()
    expect(console.warn).toHaveBeenCalledWith(expect.stringMatching(/was gone/))
    // A publish counted in the lost hash after B's last read is lost with it: B re-checks every
    // tag it knows once.
    expect(b.manifest.get('sanity:claim')?.stale).toBeGreaterThan(0)
    // Version 1 in the new hash is below the 3 B saw before the flush, yet new.
    await a.tags.share(['sanity:claim'])
    b.manifest.clear()
    await b.tags.sync()
    expect(b.manifest.get('sanity:claim')?.stale).toBeGreaterThan(0)
  })

  it('a lost hash is noticed by an instance that had not yet read the publish counted in it', async () => {
    const a = await instance()
    const b = await instance()
    // B reads before any publish: the list is started then, not at the first publish.
    await b.tags.sync()
    expect(await admin.client.hGet(KEY, '__since')).toBeTruthy()
    b.tags.noteContentTags(['sanity:claim'])
    await a.tags.share(['sanity:claim'])
    await admin.client.flushAll()
    await b.tags.sync()
    expect(console.warn).toHaveBeenCalledWith(expect.stringMatching(/was gone/))
    // A's publish never reached B through Redis: B re-checks the content it has served.
    expect(b.manifest.get('sanity:claim')?.stale).toBeGreaterThan(0)
  })

  it('health is not ok before the first read, ok after it, and not ok at once when Redis is gone', async () => {
    const a = await instance()
    expect(a.tags.health()).toMatchObject({ ok: false, problem: /not yet read/ })
    const before = Date.now()
    a.tags.tick()
    await vi.waitFor(() => expect(a.tags.health()).toMatchObject({ ok: true }))
    // When it last read them, for telling whether a publish made at a known time can have arrived.
    const readAt = Date.parse(a.tags.health().readAt ?? '')
    expect(readAt).toBeGreaterThanOrEqual(before)
    expect(readAt).toBeLessThanOrEqual(Date.now())
    await a.conn.client.disconnect()
    expect(a.tags.health()).toMatchObject({ ok: false, readAt: new Date(readAt).toISOString() })
  })

  it('a share that Redis does not take rejects, and is counted once Redis answers', async () => {
    const a = await instance()
    await a.conn.client.disconnect()
    await expect(a.tags.share(['sanity:claim'])).rejects.toThrow(/not connected/)
    expect(a.tags.pending.has('sanity:claim')).toBe(true)
    await a.conn.client.connect()
    await ready(a.conn)
    await a.tags.sync()
    expect(await admin.client.hGet(KEY, 'sanity:claim')).toBe('1')
  })
})

describe('a render that straddles a revalidation', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('is made stale again a few seconds after the revalidation was applied', () => {
    vi.useFakeTimers()
    const manifest: Manifest = new Map()
    const conn = { reporters: new Map(), refusals: new Map() } as unknown as Connection
    const tags = new SharedTags(conn, { manifest, interval: false })
    tags.markStale(['sanity:claim'])
    tags.scheduleRechecks(['sanity:claim'])
    const applied = manifest.get('sanity:claim')?.stale ?? 0
    // A page rendered with data fetched before, stored 1 s later: fresh by the first mark...
    vi.advanceTimersByTime(1000)
    const storedAt = Date.now()
    expect(applied).toBeLessThan(storedAt)
    // ...and stale once the revalidation is applied again.
    vi.advanceTimersByTime(RECHECK_AFTER_MS[0]! - 1000)
    expect(manifest.get('sanity:claim')?.stale).toBeGreaterThan(storedAt)
    const second = manifest.get('sanity:claim')?.stale ?? 0
    vi.advanceTimersByTime(RECHECK_AFTER_MS[1]! - RECHECK_AFTER_MS[0]!)
    expect(manifest.get('sanity:claim')?.stale).toBeGreaterThan(second)
    tags.stop()
  })
})

import FileSystemCacheModule from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
import TagsManifestModule from 'next/dist/server/lib/incremental-cache/tags-manifest.external.js'
import { afterEach, describe, expect, it, vi } from 'vitest'

describe('the ISR cache handler', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('keeps pages in Next’s own file-system cache and shares nothing when REDIS_URL is not set', async () => {
    vi.stubEnv('REDIS_URL', '')
    vi.resetModules()
    const { default: VigiaCacheHandler } = await import('@/lib/cache/cache-handler.mjs')
    const handler = new VigiaCacheHandler({
      serverDistDir: '/tmp/none/server',
      revalidatedTags: [],
    })
    const FileSystemCache =
      (FileSystemCacheModule as unknown as { default?: unknown }).default ?? FileSystemCacheModule
    expect(handler.local).toBeInstanceOf(FileSystemCache)
    expect(handler.shared).toBeUndefined()
  })

  it('after a failed regeneration (Next storing the previous page again), marks the page’s content tags stale again within seconds, not 30 s', async () => {
    vi.stubEnv('REDIS_URL', '')
    vi.resetModules()
    const { default: VigiaCacheHandler, RETRY_FAILED_RENDER_MS } =
      await import('@/lib/cache/cache-handler.mjs')
    const { tagsManifest } = TagsManifestModule as unknown as {
      tagsManifest: Map<string, { stale?: number }>
    }
    const handler = new VigiaCacheHandler({
      serverDistDir: '/tmp/none/server',
      revalidatedTags: [],
    })
    // Next's own file-system cache, reduced to a memory of one entry.
    let kept: { value: unknown; lastModified: number } | undefined
    handler.local = {
      get: async () => kept,
      set: async (_key: string, value: unknown) => {
        kept = { value, lastModified: Date.now() }
      },
    } as unknown as typeof handler.local
    try {
      const page = {
        kind: 'APP_ROUTE',
        body: Buffer.from('<p>97,3%</p>'),
        status: 200,
        headers: { 'x-next-cache-tags': '_N_T_/layout,sanity:claim,sanity:siteSettings' },
      }
      const context = { cacheControl: { revalidate: 3600 } }
      await handler.set('/', page, context)
      const stored = await handler.get('/', { kind: 'APP_ROUTE' })
      expect(stored?.value).toBeTruthy()

      vi.useFakeTimers({ toFake: ['setTimeout'] })
      tagsManifest.delete('sanity:claim')
      // A new render (another object) schedules nothing.
      await handler.set('/', { ...page }, context)
      vi.advanceTimersByTime(RETRY_FAILED_RENDER_MS)
      expect(tagsManifest.get('sanity:claim')).toBeUndefined()
      // The very value the cache handed out, stored again: the previous page kept.
      const before = Date.now()
      await handler.set('/', stored!.value, { cacheControl: { revalidate: 30 } })
      expect(tagsManifest.get('sanity:claim')).toBeUndefined()
      vi.advanceTimersByTime(RETRY_FAILED_RENDER_MS)
      expect(tagsManifest.get('sanity:claim')?.stale).toBeGreaterThanOrEqual(before)
      expect(tagsManifest.get('sanity:siteSettings')?.stale).toBeGreaterThanOrEqual(before)
      expect(tagsManifest.has('_N_T_/layout')).toBe(false)
    } finally {
      vi.useRealTimers()
      tagsManifest.delete('sanity:claim')
      tagsManifest.delete('sanity:siteSettings')
    }
  })

  it('a render that began before a revalidation and is stored after it is stale at once, and the next render is not', async () => {
    vi.stubEnv('REDIS_URL', '')
    vi.resetModules()
    const { default: VigiaCacheHandler } = await import('@/lib/cache/cache-handler.mjs')
    const { tagsManifest } = TagsManifestModule as unknown as {
      tagsManifest: Map<string, { stale?: number }>
    }
    const handler = new VigiaCacheHandler({
      serverDistDir: '/tmp/none/server',
      revalidatedTags: [],
    })
    let kept: { value: unknown; lastModified: number } | undefined
    handler.local = {
      get: async () => kept,
      set: async (_key: string, value: unknown) => {
        kept = { value, lastModified: Date.now() }
      },
    } as unknown as typeof handler.local
    const render = () => ({
      kind: 'APP_PAGE',
      html: '<p>old</p>',
      headers: { 'x-next-cache-tags': '_N_T_/layout,sanity:claim' },
    })
    const isStale = () => (tagsManifest.get('sanity:claim')?.stale ?? 0) > kept!.lastModified
    try {
      tagsManifest.delete('sanity:claim')
      // The render starts (the page is read), the instance learns of a publish, the render ends.
      await handler.get('/p', {})
      await new Promise((resolve) => setTimeout(resolve, 5))
      tagsManifest.set('sanity:claim', { stale: Date.now() })
      await new Promise((resolve) => setTimeout(resolve, 5))
      await handler.set('/p', render(), {})
      expect(isStale(), 'the straddling render is stale').toBe(true)
      // The next render starts after: kept.
      await new Promise((resolve) => setTimeout(resolve, 5))
      await handler.get('/p', {})
      await new Promise((resolve) => setTimeout(resolve, 5))
      await handler.set('/p', render(), {})
      expect(isStale(), 'a render begun after the publish is fresh').toBe(false)
    } finally {
      tagsManifest.delete('sanity:claim')
    }
  })

  it('never hands out a stale 404 page to be rebuilt in the background (Next gives that render the not-found head): expired instead', async () => {
    vi.stubEnv('REDIS_URL', '')
    vi.resetModules()
    const { default: VigiaCacheHandler, PAGE_REVALIDATE_SECONDS } =
      await import('@/lib/cache/cache-handler.mjs')
    const { REVALIDATE_SECONDS } = await import('@/lib/content/tags')
    expect(PAGE_REVALIDATE_SECONDS).toBe(REVALIDATE_SECONDS)
    const { tagsManifest } = TagsManifestModule as unknown as {
      tagsManifest: Map<string, { stale?: number }>
    }
    const handler = new VigiaCacheHandler({
      serverDistDir: '/tmp/none/server',
      revalidatedTags: [],
    })
    let kept: { value: unknown; lastModified: number } | undefined
    handler.local = { get: async () => kept } as unknown as typeof handler.local
    const entry = (status: number, lastModified: number) => ({
      lastModified,
      value: {
        kind: 'APP_PAGE',
        html: '<title>x</title>',
        status,
        headers: { 'x-next-cache-tags': '_N_T_/p/feira,sanity:campaignPage' },
      },
    })
    try {
      tagsManifest.delete('sanity:campaignPage')
      const now = Date.now()
      // Fresh: Next serves it as it is.
      kept = entry(404, now - 1000)
      expect((await handler.get('/p/feira', {}))?.lastModified).toBe(now - 1000)
      // A publish marked its content stale: expired, rendered while the visitor waits.
      tagsManifest.set('sanity:campaignPage', { stale: now })
      expect((await handler.get('/p/feira', {}))?.lastModified).toBe(-1)
      // The same for a live page is Next's to serve stale (its background render is right).
      kept = entry(200, now - 1000)
      expect((await handler.get('/p/feira', {}))?.lastModified).toBe(now - 1000)
      // Past the hourly lifetime with no publish: expired too.
      tagsManifest.delete('sanity:campaignPage')
      kept = entry(404, now - PAGE_REVALIDATE_SECONDS * 1000 - 1)
      expect((await handler.get('/p/feira', {}))?.lastModified).toBe(-1)
    } finally {
      tagsManifest.delete('sanity:campaignPage')
    }
  })
})

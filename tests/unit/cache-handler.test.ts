import FileSystemCacheModule from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
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
})

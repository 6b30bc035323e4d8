import FileSystemCacheModule from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
import { describe, expect, it, vi } from 'vitest'

describe('the ISR cache handler chosen at start-up', () => {
  it('is Next’s own file-system cache when REDIS_URL is not set', async () => {
    vi.stubEnv('REDIS_URL', '')
    vi.resetModules()
    const { default: VigiaCacheHandler } = await import('@/lib/cache/cache-handler.mjs')
    const handler = new VigiaCacheHandler({
      serverDistDir: '/tmp/none/server',
      revalidatedTags: [],
    })
    const FileSystemCache =
      (FileSystemCacheModule as unknown as { default?: unknown }).default ?? FileSystemCacheModule
    expect(handler.fs).toBeInstanceOf(FileSystemCache)
    expect(handler.redis).toBeUndefined()
    vi.unstubAllEnvs()
  })
})

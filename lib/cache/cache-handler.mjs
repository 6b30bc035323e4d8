// The ISR and data cache handler named in next.config.ts (`cacheHandler`). It is chosen when the
// server starts, not at build time, so one production build serves both set-ups:
// - REDIS_URL unset: Next's own file-system cache, exactly what Next uses without a handler.
// - REDIS_URL set: @trieb.work/nextjs-turbo-redis-cache, so every instance reads and writes the
//   same pages and fetch results, and a revalidateTag() on one instance (the publish webhook)
//   marks them stale on all of them.
//
// Why that package: it is maintained, tested by its authors on Next 16 (App Router, with and
// without Cache Components) and installs on Node 20. @fortedigital/nextjs-cache-handler requires
// Node >= 22 since 2.x, and Next's own `cacheHandlers` cover only 'use cache', not the ISR page
// cache or fetch() cache this site uses. https://github.com/trieb-work/nextjs-turbo-redis-cache
// https://nextjs.org/docs/app/api-reference/config/next-config-js/incrementalCacheHandlerPath
import fs from 'node:fs'
import path from 'node:path'

import FileSystemCacheModule from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
import { RedisStringsHandler } from '@trieb.work/nextjs-turbo-redis-cache'

const FileSystemCache = FileSystemCacheModule.default ?? FileSystemCacheModule

const redisUrl = process.env.REDIS_URL?.trim()

/** One Redis connection per process, however many times Next constructs the handler. */
let shared

function redisHandler(serverDistDir) {
  if (!shared) {
    shared = new RedisStringsHandler({
      redisUrl,
      // DB 0 whatever VERCEL_ENV says (the package's default picks DB 1 off Vercel production).
      database: 0,
      // Separate builds must not read each other's pages: the build ID names this one.
      keyPrefix: process.env.REDIS_KEY_PREFIX?.trim() || `vigia:${buildId(serverDistDir)}:`,
      // Each instance remembers a Redis read for this long. The package's 10 s would let another
      // instance serve the old page for 10 s after a publish; 1 s still spares Redis a read per
      // visitor under load.
      inMemoryCachingTime: 1000,
      // A Redis that does not answer costs a visitor at most this long: the page is then
      // rendered as on a cache miss rather than not served.
      getTimeoutMs: 300,
    })
    console.info('[cache] ISR and data cache shared through Redis (REDIS_URL)')
  }
  return shared
}

function buildId(serverDistDir) {
  try {
    return fs.readFileSync(path.join(serverDistDir, '..', 'BUILD_ID'), 'utf8').trim()
  } catch {
    return 'unknown-build'
  }
}

export default class VigiaCacheHandler {
  constructor(context) {
    if (redisUrl) {
      this.redis = redisHandler(context.serverDistDir)
    } else {
      this.fs = new FileSystemCache(context)
    }
  }

  get(...args) {
    return this.redis ? this.redis.get(...args) : this.fs.get(...args)
  }

  set(...args) {
    return this.redis ? this.redis.set(...args) : this.fs.set(...args)
  }

  revalidateTag(...args) {
    return this.redis ? this.redis.revalidateTag(...args) : this.fs.revalidateTag(...args)
  }

  resetRequestCache(...args) {
    return this.redis ? this.redis.resetRequestCache(...args) : this.fs.resetRequestCache?.(...args)
  }
}

// The ISR and data cache handler named in next.config.ts (`cacheHandler`). Pages and fetch()
// results stay in Next's own file-system cache on each instance, exactly as without a handler.
// With REDIS_URL set, Redis carries only what instances must agree on: when each cache tag was
// last revalidated (the publish webhook calls revalidateTag() on one instance; every instance
// must then treat that content as stale).
//
// Why not keep the pages themselves in Redis: a visitor's request then never waits on Redis, so
// no Redis fault (down, refusing our password, slow, flushed) can slow down or fail a page; each
// instance renders a page once itself after a publish (one Content Lake query per instance and
// publish), which for one page and a few legal pages costs nothing. This is the "tag
// coordination" pattern of Next's guide, without shared entries (its step 4, "not required for
// correctness"): https://nextjs.org/docs/app/guides/how-revalidation-works#multi-instance-considerations
//
// How the tags travel: a Redis hash <prefix>tags, tag -> {stale, expired, at}, that every
// instance reads once a second and writes when it revalidates a tag. Plain HGETALL/HSET: no
// keyspace notifications, no CONFIG, no pub/sub channel, so a managed Redis at its defaults
// works. What an instance learns goes into Next's own tag manifest, which Next consults on every
// cache read. An instance that cannot read the hash (Redis down, slow, refusing us) marks the
// content tags it has seen stale every FALLBACK_REVALIDATE_SECONDS instead, so it re-checks the
// content that often and a publish it missed reaches it within that time. A revalidation made
// while Redis was away is written as soon as Redis answers again, and the hash is rewritten from
// what the instances know if Redis lost it (restarted without persistence, or flushed).
// https://nextjs.org/docs/app/api-reference/config/next-config-js/incrementalCacheHandlerPath
import { randomUUID } from 'node:crypto'

import FileSystemCacheModule from 'next/dist/server/lib/incremental-cache/file-system-cache.js'
import TagsManifestModule from 'next/dist/server/lib/incremental-cache/tags-manifest.external.js'

import {
  FALLBACK_REVALIDATE_SECONDS,
  TAGS_AREA,
  connectionProblem,
  getRedis,
  keyPrefix,
  reportHealth,
  run,
} from '../redis/connection.mjs'
import { isPastBoundary } from './visibility-boundary.mjs'

const FileSystemCache = FileSystemCacheModule.default ?? FileSystemCacheModule
/** @type {Map<string, { stale?: number, expired?: number }>} Next's tag state, one per process. */
const tagsManifest = TagsManifestModule.tagsManifest

/** How often each instance reads the shared tag hash: the delay for a publish to reach it. */
const SYNC_INTERVAL_MS = 1000
/** Without a successful read for this long, the instance falls back to re-checking on a timer. */
const OUT_OF_TOUCH_MS = 3 * SYNC_INTERVAL_MS
/** A field of the hash that marks one lifetime of the list, so that a lost list can be told. */
const SINCE_FIELD = '__since'
/** Next's implicit per-path tags; the fallback re-checks content tags, which pages carry too. */
const IMPLICIT_TAG_PREFIX = '_N_T_'
const TAGS_HEADER = 'x-next-cache-tags'

/**
 * @typedef {{ stale?: number, expired?: number, at: number }} TagRevalidation
 * @typedef {import('../redis/connection.mjs').Connection} Connection
 */

/** One per process: the tags this instance knows were revalidated, and their exchange with Redis. */
class SharedTags {
  /** @param {Connection} redis */
  constructor(redis) {
    this.redis = redis
    this.key = `${keyPrefix()}tags`
    /** @type {Map<string, TagRevalidation>} the latest revalidation of each tag, from anywhere */
    this.known = new Map()
    /** @type {Set<string>} content tags seen on pages and fetches, for the fallback */
    this.contentTags = new Set()
    // Counted from the start, so that the first second of a healthy start is not "out of touch".
    this.lastSync = Date.now()
    this.lastFallback = 0
    /** The mark of the shared list this instance last read; another one means Redis lost it. */
    this.since = undefined
    this.syncing = false
    this.timer = setInterval(() => this.tick(), SYNC_INTERVAL_MS)
    // Never what keeps the process alive.
    this.timer.unref?.()
    reportHealth(redis, 'sharedCache', () => this.health())
  }

  /** Whether publishes on other instances reach this one now (within a second). */
  inTouch() {
    return Date.now() - this.lastSync < OUT_OF_TOUCH_MS
  }

  health() {
    if (this.inTouch()) return { ok: true }
    return {
      ok: false,
      problem:
        `${connectionProblem(this.redis) ?? 'Redis refused the shared tag commands'}: ` +
        `publishes from other instances arrive within ${FALLBACK_REVALIDATE_SECONDS} s`,
    }
  }

  /** @param {Iterable<string> | undefined} tags */
  noteContentTags(tags) {
    for (const tag of tags ?? []) {
      if (tag && !tag.startsWith(IMPLICIT_TAG_PREFIX)) this.contentTags.add(tag)
    }
  }

  /** Called after Next's own revalidateTag() has updated this process's manifest. */
  async revalidated(/** @type {string[]} */ tags) {
    const at = Date.now()
    for (const tag of tags) this.known.set(tag, { ...tagsManifest.get(tag), at })
    // Written now if Redis answers in time; otherwise by the next successful sync.
    try {
      await this.write(tags)
    } catch {
      // Kept in `known`; the state change, if any, is logged by the connection.
    }
  }

  /** @param {string[]} tags */
  write(tags) {
    const fields = Object.fromEntries(
      tags.flatMap((tag) => {
        const entry = this.known.get(tag)
        return entry ? [[tag, JSON.stringify(entry)]] : []
      }),
    )
    if (Object.keys(fields).length === 0) return Promise.resolve()
    return run(this.redis, TAGS_AREA, (client) => client.hSet(this.key, fields))
  }

  tick() {
    if (!this.syncing) {
      this.syncing = true
      this.sync()
        .then(() => {
          this.lastSync = Date.now()
        })
        .catch(() => {
          // Unreachable, slow or refused: logged once by the connection; the fallback below covers it.
        })
        .finally(() => {
          this.syncing = false
        })
    }
    if (this.inTouch()) {
      this.lastFallback = 0
    } else if (Date.now() - this.lastFallback >= FALLBACK_REVALIDATE_SECONDS * 1000) {
      this.lastFallback = Date.now()
      this.markContentStale()
    }
  }

  /** Reads the shared hash, takes what is newer, and writes back what Redis lacks. */
  async sync() {
    const remote = await run(this.redis, TAGS_AREA, (client) => client.hGetAll(this.key))
    const fields = Object.keys(remote)
    let since = remote[SINCE_FIELD]
    if (since === undefined) {
      // A new list, or one Redis lost: the first instance to notice starts it again, with a new
      // mark, so that every instance can tell (below) and writes back what it knows.
      const mark = `${Date.now()}-${randomUUID()}`
      await run(this.redis, TAGS_AREA, (client) => client.hSetNX(this.key, SINCE_FIELD, mark))
      since =
        (await run(this.redis, TAGS_AREA, (client) => client.hGet(this.key, SINCE_FIELD))) ?? mark
    }
    if (this.since !== undefined && since !== this.since) {
      console.warn(
        `[cache] The shared tag list in Redis (${this.key}) was gone: Redis restarted without ` +
          'persistence or was flushed. Wrote back what this instance knows; nothing to do.',
      )
    }
    this.since = since

    for (const tag of fields) {
      if (tag === SINCE_FIELD) continue
      const theirs = parse(remote[tag])
      if (!theirs) continue
      const mine = this.known.get(tag)
      if (mine && mine.at >= theirs.at) continue
      this.known.set(tag, theirs)
      apply(tag, theirs)
    }
    const missing = [...this.known].flatMap(([tag, mine]) => {
      const theirs = parse(remote[tag])
      return !theirs || theirs.at < mine.at ? [tag] : []
    })
    if (missing.length > 0) await this.write(missing)
  }

  /** Out of touch: treat every content tag as possibly revalidated elsewhere (stale, so visitors still get the cached page at once while it is regenerated). */
  markContentStale() {
    const now = Date.now()
    for (const tag of new Set([...this.contentTags, ...this.known.keys()])) {
      tagsManifest.set(tag, { ...tagsManifest.get(tag), stale: now })
    }
  }
}

/** @param {string | undefined} value @returns {TagRevalidation | undefined} */
function parse(value) {
  if (!value) return undefined
  try {
    const entry = JSON.parse(value)
    return typeof entry?.at === 'number' ? entry : undefined
  } catch {
    return undefined
  }
}

/** Merges another instance's revalidation into this process's manifest. */
function apply(/** @type {string} */ tag, /** @type {TagRevalidation} */ entry) {
  const current = tagsManifest.get(tag) ?? {}
  tagsManifest.set(tag, {
    ...current,
    // A fallback mark made here may be later than the revalidation: keep the later of the two.
    stale: Math.max(current.stale ?? 0, entry.stale ?? 0) || undefined,
    ...(entry.expired === undefined ? {} : { expired: entry.expired }),
  })
}

/** @returns {SharedTags | undefined} */
function sharedTags() {
  const redis = getRedis()
  if (!redis) return undefined
  const holder = /** @type {Connection & { sharedTags?: SharedTags }} */ (redis)
  holder.sharedTags ??= new SharedTags(redis)
  return holder.sharedTags
}

/** Where Next keeps this build's server files (and prerendered pages), for /api/health. */
const PAGES_DIR_KEY = Symbol.for('vigia.serverDistDir')

/** Next constructs one handler per request; everything shared lives in module or global state. */
export default class VigiaCacheHandler {
  constructor(context) {
    this.local = new FileSystemCache(context)
    this.shared = sharedTags()
    if (context.serverDistDir) globalThis[PAGES_DIR_KEY] = context.serverDistDir
  }

  async get(key, context) {
    const entry = await this.local.get(key, context)
    if (this.shared) {
      if (context?.tags) this.shared.noteContentTags(context.tags)
      const header = entry?.value?.headers?.[TAGS_HEADER]
      if (typeof header === 'string') this.shared.noteContentTags(header.split(','))
    }
    // Past a visibility boundary the page is expired, not stale: lastModified -1 is Next's mark
    // for "render it now, while the visitor waits" (lib/cache/visibility-boundary.mjs).
    if (entry && isPastBoundary(entry.value?.headers?.[TAGS_HEADER])) {
      return { ...entry, lastModified: -1 }
    }
    return entry
  }

  set(key, data, context) {
    if (this.shared && context?.tags) this.shared.noteContentTags(context.tags)
    return this.local.set(key, data, context)
  }

  async revalidateTag(tags, durations) {
    await this.local.revalidateTag(tags, durations)
    const list = typeof tags === 'string' ? [tags] : tags
    if (this.shared && list.length > 0) await this.shared.revalidated(list)
  }

  resetRequestCache() {
    this.local.resetRequestCache?.()
  }
}

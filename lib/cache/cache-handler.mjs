// The ISR and data cache handler named in next.config.ts (`cacheHandler`). Pages stay in Next's own
// file-system cache on each instance; with REDIS_URL, Redis carries only a version per cache tag,
// which the webhook raises and every instance reads once a second, marking the tag stale with its
// own clock. Why no pages in Redis, how a publish travels, straddling renders and Redis faults:
// docs/deploying.md, "Several instances", and docs/publishing.md, "The path of a publish".
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
const areTagsStale = TagsManifestModule.areTagsStale

/** How often each instance reads the shared versions: the delay for a publish to reach it. */
const SYNC_INTERVAL_MS = 1000
/** Without a successful read for this long, the instance falls back to re-checking on a timer. */
const OUT_OF_TOUCH_MS = 3 * SYNC_INTERVAL_MS
/**
 * After applying a revalidation, it is applied again at these delays, so that a page whose render
 * started before (with data fetched before) and ended after is not kept as fresh. Longer than a
 * render of the home page on two loaded cores (about 1-3 s).
 */
export const RECHECK_AFTER_MS = [2000, 5000]
/** A field of the hash that marks one lifetime of the hash, so that a lost hash can be told. */
const SINCE_FIELD = '__since'
/** Next's implicit per-path tags; the fallback re-checks content tags, which pages carry too. */
const IMPLICIT_TAG_PREFIX = '_N_T_'
const TAGS_HEADER = 'x-next-cache-tags'
/** A revalidation shared by the webhook is not shared again when Next applies it here. */
const SHARED_RECENTLY_MS = 30_000

/** A mark for a new lifetime of the shared hash, unlike any other. */
const newMark = () => `${Date.now()}-${randomUUID()}`

/**
 * Raises the version of each tag in ARGV[2..] by one and returns the hash's mark and the new
 * versions, in one atomic step; starts a new mark (ARGV[1]) if the hash was lost. HINCRBY never
 * lowers a version, so no write, however late, goes back in time.
 */
const SHARE_SCRIPT = `
redis.call('HSETNX', KEYS[1], '${SINCE_FIELD}', ARGV[1])
local out = { redis.call('HGET', KEYS[1], '${SINCE_FIELD}') }
for i = 2, #ARGV do out[#out + 1] = redis.call('HINCRBY', KEYS[1], ARGV[i], 1) end
return out
`

/**
 * @typedef {import('../redis/connection.mjs').Connection} Connection
 */

/** One per process: the tag versions this instance has seen, and their exchange with Redis. */
export class SharedTags {
  /** @param {Connection} redis @param {{ manifest?: Map<string, { stale?: number, expired?: number }>, interval?: boolean }} [options] */
  constructor(redis, { manifest = tagsManifest, interval = true } = {}) {
    this.redis = redis
    this.manifest = manifest
    this.key = `${keyPrefix()}tag-versions`
    /** @type {Map<string, number>} the version of each tag this instance has applied */
    this.seen = new Map()
    /** @type {Set<string>} revalidated here, not yet counted in Redis */
    this.pending = new Set()
    /** @type {Map<string, number>} tags the webhook shared, and when */
    this.sharedAt = new Map()
    /** @type {Set<string>} content tags seen on pages and fetches, for the fallback */
    this.contentTags = new Set()
    /**
     * When the last successful read of the shared versions was sent (every publish counted before
     * then has been applied here); 0: never since the start.
     */
    this.lastSync = 0
    // Counted from the start for the fallback, so that a healthy start is not "out of touch".
    this.startedAt = Date.now()
    this.lastFallback = 0
    /** The mark of the shared hash this instance last read; another one means Redis lost it. */
    this.since = undefined
    this.syncing = false
    /** @type {Set<ReturnType<typeof setTimeout>>} */
    this.rechecks = new Set()
    if (interval) {
      this.timer = setInterval(() => this.tick(), SYNC_INTERVAL_MS)
      // Never what keeps the process alive.
      this.timer.unref?.()
    }
    reportHealth(redis, 'sharedCache', () => this.health())
  }

  /** Whether publishes on other instances reach this one now (within a second). */
  inTouch() {
    return Date.now() - (this.lastSync || this.startedAt) < OUT_OF_TOUCH_MS
  }

  /**
   * Ok only while this instance reads the shared versions: connected, the tags commands
   * accepted, and a read succeeded in the last few seconds (never before the first one).
   */
  health() {
    // The client's own flag too: it drops as the socket closes, before any error is reported.
    const connection =
      connectionProblem(this.redis) ??
      (this.redis.client.isReady ? undefined : 'not connected to Redis')
    const refused = this.redis.refusals.get(TAGS_AREA)
    const problem =
      connection ??
      (refused ? `Redis refused the shared tag commands (${refused})` : undefined) ??
      (this.lastSync === 0
        ? 'not yet read the shared publishes from Redis'
        : Date.now() - this.lastSync >= OUT_OF_TOUCH_MS
          ? `no read of the shared publishes for ${Math.round((Date.now() - this.lastSync) / 1000)} s`
          : undefined)
    // When it last read them, for operators (and tests) telling whether a publish counted at a
    // known time has reached this instance: it has if it was counted before `readAt`.
    const readAt = this.lastSync ? { readAt: new Date(this.lastSync).toISOString() } : {}
    if (problem === undefined) return { ok: true, ...readAt }
    return {
      ok: false,
      problem: `${problem}: publishes from other instances arrive within ${FALLBACK_REVALIDATE_SECONDS} s`,
      ...readAt,
    }
  }

  /** @param {Iterable<string> | undefined} tags */
  noteContentTags(tags) {
    for (const tag of tags ?? []) {
      if (tag && !tag.startsWith(IMPLICIT_TAG_PREFIX)) this.contentTags.add(tag)
    }
  }

  /**
   * Counts a revalidation of these tags in Redis; resolves once Redis has it, rejects (and keeps
   * the tags to count once Redis answers) otherwise. The webhook answers 2xx only after this.
   * @param {string[]} tags
   */
  async share(tags) {
    for (const tag of tags) this.sharedAt.set(tag, Date.now())
    try {
      await this.count(tags)
    } catch (error) {
      for (const tag of tags) this.pending.add(tag)
      throw error
    }
  }

  /** Called after Next's own revalidateTag() has updated this process's manifest. */
  revalidated(/** @type {string[]} */ tags) {
    this.scheduleRechecks(tags)
    // Shared already by the webhook (the usual case): nothing more to write.
    const unshared = tags.filter(
      (tag) => Date.now() - (this.sharedAt.get(tag) ?? 0) > SHARED_RECENTLY_MS,
    )
    if (unshared.length === 0) return Promise.resolve()
    return this.share(unshared).catch(() => {
      // Kept in `pending`; the state change, if any, is logged by the connection.
    })
  }

  /** @param {string[]} tags */
  async count(tags) {
    if (tags.length === 0) return
    const mark = newMark()
    const reply = /** @type {Array<string | number>} */ (
      await run(this.redis, TAGS_AREA, (client) =>
        client.eval(SHARE_SCRIPT, { keys: [this.key], arguments: [mark, ...tags] }),
      )
    )
    const since = String(reply[0])
    if (this.since !== undefined && since !== this.since) {
      // A new hash: read it whole on the next sync, as a lost one.
      return
    }
    this.since = since
    // Applied here already: not again when the sync reads our own write.
    tags.forEach((tag, index) => {
      const version = Number(reply[index + 1])
      if (version > (this.seen.get(tag) ?? 0)) this.seen.set(tag, version)
    })
  }

  tick() {
    if (!this.syncing) {
      this.syncing = true
      const sent = Date.now()
      this.sync()
        .then(() => {
          this.lastSync = sent
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

  /** Reads the shared versions, applies each that went up, and counts what Redis lacks. */
  async sync() {
    let remote = await run(this.redis, TAGS_AREA, (client) => client.hGetAll(this.key))
    if (remote[SINCE_FIELD] === undefined) {
      // No list (a new Redis, or one that lost it): start one now rather than at the next
      // publish, so that every instance holds its mark from its next read on, and a later loss
      // is noticed by all of them, even one that has not yet read a publish counted in it.
      await run(this.redis, TAGS_AREA, (client) => client.hSetNX(this.key, SINCE_FIELD, newMark()))
      remote = await run(this.redis, TAGS_AREA, (client) => client.hGetAll(this.key))
    }
    const since = remote[SINCE_FIELD]
    if (since !== this.since) {
      if (this.since !== undefined) {
        console.warn(
          `[cache] The shared publish list in Redis (${this.key}) was gone: Redis restarted ` +
            'without persistence or was flushed. Every instance starts it again; nothing to do.',
        )
        // A publish counted in the lost hash after this instance's last read is lost with it:
        // every page is re-checked once, as after a start, so none of them keeps missing it.
        this.markContentStale()
      }
      // Versions of another lifetime of the hash say nothing about this one.
      this.seen.clear()
      this.since = since
    }
    /** @type {string[]} */
    const changed = []
    for (const [tag, value] of Object.entries(remote)) {
      if (tag === SINCE_FIELD) continue
      const version = Number(value)
      if (!Number.isSafeInteger(version)) continue
      if (version > (this.seen.get(tag) ?? 0)) {
        changed.push(tag)
        this.seen.set(tag, version)
      }
    }
    // At the start (or on a new hash), every tag ever revalidated counts as changed: the pages on
    // this instance's disk may predate any of them. One render per page, once.
    if (changed.length > 0) {
      this.markStale(changed)
      this.scheduleRechecks(changed)
    }
    if (this.pending.size > 0) {
      const tags = [...this.pending]
      await this.count(tags)
      for (const tag of tags) this.pending.delete(tag)
    }
  }

  /** Marks these tags stale now, by this process's clock. */
  markStale(/** @type {Iterable<string>} */ tags) {
    markTagsStale(this.manifest, tags)
  }

  /** Applies a revalidation again a few seconds later, for a render that straddled it. */
  scheduleRechecks(/** @type {string[]} */ tags) {
    for (const delay of RECHECK_AFTER_MS) {
      const timer = setTimeout(() => {
        this.rechecks.delete(timer)
        this.markStale(tags)
      }, delay)
      timer.unref?.()
      this.rechecks.add(timer)
    }
  }

  /** Out of touch: treat every content tag as possibly revalidated elsewhere (stale, so visitors still get the cached page at once while it is regenerated). */
  markContentStale() {
    this.markStale(new Set([...this.contentTags, ...this.seen.keys()]))
  }

  stop() {
    clearInterval(this.timer)
    for (const timer of this.rechecks) clearTimeout(timer)
  }
}

/** @returns {SharedTags | undefined} */
function sharedTags() {
  const redis = getRedis()
  if (!redis) return undefined
  const holder = /** @type {Connection & { sharedTags?: SharedTags }} */ (redis)
  holder.sharedTags ??= new SharedTags(redis)
  return holder.sharedTags
}

/**
 * When a regeneration fails (the Content Lake answering 503 or hanging), Next stores the previous
 * page again, fresh for up to 30 s (response-cache's retainPreviousCacheEntry), so a publish
 * made during an outage would show up to 30 s after the lake is back. Instead, the page's
 * content tags are marked stale again this long after: the next visitor's request tries again
 * (one Content Lake query per page and instance every few seconds while it fails, and only
 * while visitors ask for the page).
 */
export const RETRY_FAILED_RENDER_MS = 3000
/** The values this process's cache handed out: Next storing one of them again is a kept page. */
const handedOut = new WeakSet()
/**
 * When each cache key was first read since it was last stored: a render (or fetch) that stores
 * an entry began no earlier than that read. If one of the entry's tags was marked stale after
 * it began, the entry may hold data from before the revalidation (a render that straddled it),
 * so the tag is marked stale again once the entry is stored, whatever the render took.
 * @type {Map<string, number>}
 */
const readSince = new Map()

/** @param {Map<string, { stale?: number, expired?: number }>} manifest @param {Iterable<string>} tags */
function markTagsStale(manifest, tags) {
  const now = Date.now()
  for (const tag of tags) {
    const current = manifest.get(tag) ?? {}
    manifest.set(tag, { ...current, stale: Math.max(current.stale ?? 0, now) })
  }
}

/** The content tags (not Next's implicit per-path ones) of an entry. */
function contentTagsOf(data, context) {
  const header = data?.headers?.[TAGS_HEADER]
  const tags = [...(context?.tags ?? []), ...(typeof header === 'string' ? header.split(',') : [])]
  return [...new Set(tags.filter((tag) => tag && !tag.startsWith(IMPLICIT_TAG_PREFIX)))]
}

/**
 * The pages' hourly lifetime (REVALIDATE_SECONDS in lib/content/tags.ts; a unit test keeps the two
 * equal): a cached 404 older than this is past its time whatever lowered it.
 */
export const PAGE_REVALIDATE_SECONDS = 3600

/**
 * Whether this is a cached 404 page that Next would serve stale and rebuild in the background.
 * Next (16.4) renders that rebuild with the status of the stale answer it just sent, 404, and so
 * gives the not-found page's head (title, noindex, canonical) to whatever the page renders now: a
 * page that went live (a start passed, a publish) kept its body under the 404 page's head until
 * the next render. Expired instead, the 404 is rebuilt while the visitor waits, with a status of
 * its own. Only pages of known slugs outside their window are ever cached as 404 (proxy.ts
 * answers the rest), so this costs a render per such page and publish, not per visitor.
 */
export function isStaleNotFound(entry, now = Date.now()) {
  const value = entry?.value
  if (!value || value.kind !== 'APP_PAGE' || value.status !== 404) return false
  const header = value.headers?.[TAGS_HEADER]
  const tags = typeof header === 'string' ? header.split(',').filter(Boolean) : []
  if (tags.length > 0 && areTagsStale(tags, entry.lastModified)) return true
  return now - entry.lastModified >= PAGE_REVALIDATE_SECONDS * 1000
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
    if (!readSince.has(key)) readSince.set(key, Date.now())
    const entry = await this.local.get(key, context)
    if (entry?.value && typeof entry.value === 'object') handedOut.add(entry.value)
    if (this.shared) {
      if (context?.tags) this.shared.noteContentTags(context.tags)
      const header = entry?.value?.headers?.[TAGS_HEADER]
      if (typeof header === 'string') this.shared.noteContentTags(header.split(','))
    }
    // Past a visibility boundary the page is expired, not stale: lastModified -1 is Next's mark
    // for "render it now, while the visitor waits" (lib/cache/visibility-boundary.mjs).
    if (entry && (isPastBoundary(entry.value?.headers?.[TAGS_HEADER]) || isStaleNotFound(entry))) {
      return { ...entry, lastModified: -1 }
    }
    return entry
  }

  async set(key, data, context) {
    if (this.shared && context?.tags) this.shared.noteContentTags(context.tags)
    const began = readSince.get(key)
    readSince.delete(key)
    const kept = Boolean(data && typeof data === 'object' && handedOut.has(data))
    const straddled =
      began !== undefined && !kept && data && typeof data === 'object'
        ? contentTagsOf(data, context).filter((tag) => (tagsManifest.get(tag)?.stale ?? 0) > began)
        : []
    if (kept) {
      // Not a new render: Next keeping the previous page after a failed regeneration.
      const tags = contentTagsOf(data, context)
      if (tags.length > 0) {
        const timer = setTimeout(() => markTagsStale(tagsManifest, tags), RETRY_FAILED_RENDER_MS)
        timer.unref?.()
      }
    }
    await this.local.set(key, data, context)
    if (straddled.length > 0) {
      // Just after the entry's own time (set above), before any later render's: this entry is
      // stale, the next one is not (no loop of renders).
      const after = Date.now() + 1
      for (const tag of straddled) {
        const current = tagsManifest.get(tag) ?? {}
        tagsManifest.set(tag, { ...current, stale: Math.max(current.stale ?? 0, after) })
      }
    }
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

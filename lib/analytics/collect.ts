import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto'

import { isbot } from 'isbot'

import { INVISIBLE } from '@/lib/text/invisible'

import { DIRECT_KEY, NO_CAMPAIGN_KEY, OTHER_KEY, REPORT_TIME_ZONE } from './report-schema'

// Counting views without cookies (docs/analytics.md): the pure part, with no I/O of its own, so
// that every rule (bots, hashing, caps, dedupe, buffering, retries) is unit-tested. Salts, the
// dedupe memory, the known paths and the database come in as functions (lib/analytics/index.ts).

export const DIMENSIONS = ['site', 'page', 'campaign', 'source', 'medium', 'referrer'] as const
export type Dimension = (typeof DIMENSIONS)[number]
/** The key of the whole-site row (daily unique visitors of the site). */
export { SITE_KEY } from './report-db.mjs'
import { SITE_KEY } from './report-db.mjs'
/** Dimensions whose values visitors choose, held to CAP_PER_DAY distinct values a day. */
const CAPPED: ReadonlySet<Dimension> = new Set(['campaign', 'source', 'medium', 'referrer'])
export const CAP_PER_DAY = 200
export const VALUE_MAX_LENGTH = 100
/** One visitor's view of one page counts at most once in this window. */
export const DEDUPE_MS = 10_000
/** Visitor hashes held in memory at most (while the database is away); views are always kept. */
export const MAX_PENDING_VISITORS = 1_000_000
/** Visitor hashes per written batch at most, on PostgreSQL (each batch is a round trip). */
export const MAX_BATCH_VISITORS = 2_000
/**
 * The same on the embedded PGlite, which runs in the server's own thread: one big batch (a busy
 * 10 s: tens of thousands of hashes) blocked every beacon for hundreds of ms, one of 2,000 for
 * about 40 ms; one of this size for a few ms, and the flusher yields between them.
 */
export const EMBEDDED_BATCH_VISITORS = 250
export const NO_MEDIUM_KEY = '(nenhum)'

/** What the beacon sends (app/api/analytics/view): the page and the visit's first touch. */
export type BeaconBody = {
  path: string
  referrer?: string
  utm_source?: string
  utm_medium?: string
  utm_campaign?: string
}

export type BatchRow = {
  day: string
  dimension: Dimension
  key: string
  visits: number
  visitors: string[]
}

/** Writes one batch; the id makes a retry of a batch already written a no-op. Throws on failure. */
export type WriteBatch = (batchId: string, rows: BatchRow[]) => Promise<void>

export type CollectorOptions = {
  write: WriteBatch
  /** The salt of a day (YYYY-MM-DD), shared by every instance when Redis is configured. */
  saltFor: (day: string) => Promise<Buffer>
  /** True when this visitor's view of this page was not seen in the last `ttlMs` (and marks it). */
  firstSeen: (key: string, ttlMs: number) => Promise<boolean>
  /** Whether the site serves this path (lib/known-paths.ts plus the fixed routes). */
  isKnownPath: (path: string) => boolean | Promise<boolean>
  /** The site's origin, part of the hash so one salt never links two sites. */
  site: string
  /** Deletes the aggregates past their retention; called at most once a (Sao Paulo) day. */
  purge?: () => Promise<unknown>
  now?: () => number
  maxPendingVisitors?: number
  maxBatchVisitors?: number
}

export type RecordResult = 'counted' | 'bot' | 'duplicate'

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: REPORT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})

/** The calendar day (YYYY-MM-DD) of `time` in America/Sao_Paulo. */
export function saoPauloDay(time: number): string {
  return dayFormat.format(new Date(time))
}

/** Whether a user agent is a bot, headless browser or audit tool (isbot), or missing. */
export function isBotAgent(userAgent: string | null | undefined): boolean {
  return !userAgent || isbot(userAgent)
}

/** The salt as a key object, made once per salt: from a Buffer, each HMAC made one (6x its cost). */
const saltKeys = new WeakMap<Buffer, KeyObject>()
function saltKey(salt: Buffer): KeyObject {
  let key = saltKeys.get(salt)
  if (!key) saltKeys.set(salt, (key = createSecretKey(salt)))
  return key
}

/**
 * The visitor of one day: HMAC-SHA256 keyed with the day's salt over (IP, user agent, site),
 * cut to 128 bits. Without the salt (deleted within 48 h) nobody can say whose it was.
 */
export function visitorHash(salt: Buffer, ip: string, userAgent: string, site: string): string {
  return createHmac('sha256', saltKey(salt))
    .update(`${ip}\n${userAgent}\n${site}`)
    .digest('hex')
    .slice(0, 32)
}

/** A campaign, source or medium value as it is counted: no control or invisible characters, ≤100. */
export function cleanValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const clean = value
    .replace(/\p{Cc}/gu, ' ')
    .replace(INVISIBLE, '')
    .replace(/[«»]/g, '"')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, VALUE_MAX_LENGTH)
    .trim()
  return clean || undefined
}

/** A referrer host as counted: lower case, a host name's characters only. */
export function cleanHost(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const host = value.trim().toLowerCase()
  return /^[a-z0-9.-]{1,100}$/.test(host) && /[a-z0-9]/.test(host) ? host : undefined
}

/** The path as the site serves it: no query or fragment, no trailing slash (but '/'). */
export function cleanPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 300) return undefined
  const path = value.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/'
  return /^\/[A-Za-z0-9._~\-/%]*$/.test(path) ? path : undefined
}

/** The keys one view counts under, before the caps. */
export function viewKeys(
  body: BeaconBody,
  pageKey: string,
  ownHost?: string,
): Record<Dimension, string> {
  const campaign = cleanValue(body.utm_campaign)
  const source = cleanValue(body.utm_source)?.toLowerCase()
  const medium = cleanValue(body.utm_medium)
  let referrer = cleanHost(body.referrer)
  if (referrer && ownHost && referrer === ownHost) referrer = undefined
  return {
    site: SITE_KEY,
    page: pageKey,
    campaign: campaign ?? NO_CAMPAIGN_KEY,
    source: source ?? referrer ?? DIRECT_KEY,
    medium: medium ?? NO_MEDIUM_KEY,
    referrer: referrer ?? DIRECT_KEY,
  }
}

type Entry = {
  day: string
  dimension: Dimension
  key: string
  visits: number
  visitors: Set<string>
}
type PendingBatch = { id: string; rows: BatchRow[]; visitors: number }

/**
 * Counts views in memory and writes them in batches. A batch that fails stays queued with its id
 * and is retried, in order, at the next flush, so a database outage loses nothing and a batch
 * whose answer was lost is not counted twice.
 */
export function createCollector(options: CollectorOptions) {
  const now = options.now ?? Date.now
  const maxPendingVisitors = options.maxPendingVisitors ?? MAX_PENDING_VISITORS
  const maxBatchVisitors = Math.max(1, options.maxBatchVisitors ?? MAX_BATCH_VISITORS)
  let buffer = new Map<string, Entry>()
  let bufferVisitors = 0
  const queue: PendingBatch[] = []
  /** Distinct capped values this instance has seen, per day and dimension. */
  const seenValues = new Map<string, Set<string>>()
  let flushing: Promise<void> | undefined
  let droppedVisitors = 0
  let lastError: string | undefined
  /** The day of the last purge attempt: one a day per instance is plenty. */
  let purgedDay: string | undefined
  const ownHost = (() => {
    try {
      return new URL(options.site).host.toLowerCase()
    } catch {
      return undefined
    }
  })()

  function pendingVisitors(): number {
    return bufferVisitors + queue.reduce((sum, batch) => sum + batch.visitors, 0)
  }

  function capped(day: string, dimension: Dimension, key: string): string {
    if (!CAPPED.has(dimension) || key === OTHER_KEY) return key
    const id = `${day}\u0000${dimension}`
    let values = seenValues.get(id)
    if (!values) seenValues.set(id, (values = new Set()))
    if (values.has(key)) return key
    if (values.size >= CAP_PER_DAY) return OTHER_KEY
    values.add(key)
    return key
  }

  function forgetOldDays(today: string) {
    for (const id of seenValues.keys()) {
      if (id.slice(0, 10) < today) seenValues.delete(id)
    }
  }

  function add(day: string, dimension: Dimension, key: string, visitor: string) {
    const id = `${day}\u0000${dimension}\u0000${key}`
    let entry = buffer.get(id)
    if (!entry) buffer.set(id, (entry = { day, dimension, key, visits: 0, visitors: new Set() }))
    entry.visits += 1
    if (entry.visitors.has(visitor)) return
    if (pendingVisitors() >= maxPendingVisitors) {
      // The views still count; only this visitor may be missed in the unique count.
      if (droppedVisitors++ === 0)
        console.warn(
          `[analytics] More than ${maxPendingVisitors} visitor hashes wait for the database: ` +
            'views are still counted, some unique visitors are not. Check the database.',
        )
      return
    }
    entry.visitors.add(visitor)
    bufferVisitors += 1
  }

  return {
    /** Counts one view; resolves once it is in the buffer (never waits for the database). */
    async record(input: {
      ip: string
      userAgent: string | null | undefined
      body: BeaconBody
    }): Promise<RecordResult> {
      if (isBotAgent(input.userAgent)) return 'bot'
      const time = now()
      const day = saoPauloDay(time)
      const salt = await options.saltFor(day)
      const visitor = visitorHash(salt, input.ip, input.userAgent!, options.site)
      const path = cleanPath(input.body.path)
      const pageKey = path && (await options.isKnownPath(path)) ? path : OTHER_KEY
      if (!(await options.firstSeen(`${day}:${visitor}:${pageKey}`, DEDUPE_MS))) return 'duplicate'
      forgetOldDays(saoPauloDay(time - 86_400_000))
      const keys = viewKeys(input.body, pageKey, ownHost)
      for (const dimension of DIMENSIONS) {
        add(day, dimension, capped(day, dimension, keys[dimension]), visitor)
      }
      return 'counted'
    },

    /**
     * Writes what is buffered, and first any batch an earlier flush could not write. Resolves
     * when done, or when the database failed (the batches stay queued); never rejects.
     */
    flush(): Promise<void> {
      if (flushing) return flushing
      flushing = (async () => {
        if (buffer.size > 0) {
          // Cut into batches of at most maxBatchVisitors hashes, each with its own id: a row's
          // visits go with its first part, its later parts carry hashes only (visits 0).
          let rows: BatchRow[] = []
          let size = 0
          const close = () => {
            if (rows.length > 0) queue.push({ id: randomUUID(), rows, visitors: size })
            rows = []
            size = 0
          }
          for (const entry of buffer.values()) {
            const visitors = [...entry.visitors]
            let start = 0
            do {
              if (size >= maxBatchVisitors) close()
              const part = visitors.slice(start, start + maxBatchVisitors - size)
              rows.push({
                day: entry.day,
                dimension: entry.dimension,
                key: entry.key,
                visits: start === 0 ? entry.visits : 0,
                visitors: part,
              })
              size += part.length
              start += part.length
            } while (start < visitors.length)
          }
          close()
          buffer = new Map()
          bufferVisitors = 0
        }
        let first = true
        while (queue.length > 0) {
          // Let the beacons waiting on this thread in between two batches.
          if (!first) await new Promise((resolve) => setImmediate(resolve))
          first = false
          const batch = queue[0]!
          try {
            await options.write(batch.id, batch.rows)
          } catch (error) {
            const message = error instanceof Error ? error.message || error.name : String(error)
            if (lastError === undefined)
              console.warn(
                `[analytics] Could not write the visit counts (${message}); they are kept in ` +
                  'memory and written when the database answers again.',
              )
            lastError = message
            return
          }
          queue.shift()
          if (lastError !== undefined) {
            console.info(
              '[analytics] The database answers again: the kept visit counts are written.',
            )
            lastError = undefined
          }
        }
        // Only once the database has taken every batch (it answers), and once a day: a failure
        // waits for tomorrow rather than adding a query to every flush.
        const today = saoPauloDay(now())
        if (options.purge && purgedDay !== today) {
          purgedDay = today
          try {
            await options.purge()
          } catch (error) {
            const message = error instanceof Error ? error.message || error.name : String(error)
            console.warn(`[analytics] Could not delete the aggregates past retention (${message}).`)
          }
        }
      })().finally(() => {
        flushing = undefined
      })
      return flushing
    },

    /** What waits in memory (for the health check and the tests). */
    pending(): { views: number; batches: number; visitors: number } {
      const siteViews = (rows: Iterable<{ dimension: string; visits: number }>) =>
        [...rows].reduce((sum, row) => sum + (row.dimension === 'site' ? row.visits : 0), 0)
      return {
        views:
          siteViews(buffer.values()) + queue.reduce((sum, batch) => sum + siteViews(batch.rows), 0),
        batches: queue.length,
        visitors: pendingVisitors(),
      }
    },
  }
}

export type Collector = ReturnType<typeof createCollector>

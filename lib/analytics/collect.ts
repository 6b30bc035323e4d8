import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto'

import { isbot } from 'isbot'

import { cleanHost, cleanPath, cleanValue, cleanVariant } from '@/lib/attribution-fields'
import { isRunningVariant, type ExperimentDefinition } from '@/lib/experiments/definition'
import { isAssignedVariant } from '@/lib/experiments/assign'
import { parseVariantId } from '@/lib/experiments/ids'
import { PRIVATE_PATH } from '@/lib/private-sections'
import { addressNetwork } from '@/lib/security/address-network'
import { refreshing } from '@/lib/refreshing'
import { siteDay } from '@/lib/site-time.mjs'

import {
  CAPPED_DIMENSIONS as CAPPED,
  CONTACT_CHANNELS,
  DIMENSION_SPECS,
  dimensionKeys,
  MEMORY_VALUES_PER_DAY,
  OTHER_KEY,
  READ_SECONDS_PER_DAY,
} from './measures.mjs'
import { todaysMap, type ReadingLedger } from './reading-ledger'
import { VITAL_SPECS, vitalBucket, type VitalName } from './vitals.mjs'
// Counting views without cookies (docs/analytics.md): the pure part, every rule unit-tested; the
// salts, dedupe memory, known paths and database come in as functions (lib/analytics/index.ts).

/** Declared in lib/analytics/measures.mjs. */
export type Dimension = (typeof DIMENSION_SPECS)[number]['name']
export const DIMENSIONS: readonly Dimension[] = DIMENSION_SPECS.map((spec) => spec.name)
/** Dimensions that count the visit's first view only (the entry page). */
const ENTRY_ONLY: ReadonlySet<Dimension> = new Set(
  DIMENSION_SPECS.flatMap((spec) => ('entryOnly' in spec && spec.entryOnly ? [spec.name] : [])),
)
export type ContactChannel = 'whatsapp' | 'phone' | 'email'
export const CONTACTS = CONTACT_CHANNELS as readonly ContactChannel[]
// Shared with the lead's attribution columns, so both clean a value alike (lib/attribution-fields.ts).
export { cleanValue } from '@/lib/attribution-fields'
export { MEMORY_VALUES_PER_DAY } from './measures.mjs'
/** One visitor's view of one page counts at most once in this window. */
export const DEDUPE_MS = 10_000
/** Visitor hashes held in memory at most (while the database is away); views are always kept. */
export const MAX_PENDING_VISITORS = 1_000_000
/** Visitor hashes per written batch at most, on PostgreSQL (each batch is a round trip). */
export const MAX_BATCH_VISITORS = 2_000
/** The same on PGlite, in the server's thread: 2,000 blocked beacons ~40 ms, 250 a few ms. */
export const EMBEDDED_BATCH_VISITORS = 250

/**
 * What the beacon sends (app/api/analytics/view): the page, the visit's first touch (entry page,
 * UTM tags, referrer host) and the event: a view (`entry` on the visit's first), a contact click,
 * or a view's end (`read`: seconds visible and deeper scroll since its last report).
 */
export type BeaconBody = {
  path: string
  landing?: string
  referrer?: string
  utm_source?: string
  utm_medium?: string
  utm_campaign?: string
  event?: 'view' | 'contact' | 'read'
  entry?: boolean
  channel?: ContactChannel
  seconds?: number
  scroll?: number
  first?: boolean
  /** The hard-loaded view's LCP and INP (ms) and CLS, on its first `read` (web-vitals). */
  lcp?: number
  inp?: number
  cls?: number
  /** The experiment's variant seen (`<experiment>/<variant>`): the page's, else the entry page's. */
  variant?: string
}

export type BatchRow = {
  day: string
  dimension: Dimension
  key: string
  visits: number
  visitors: string[]
  /** Hashes of the visitors who clicked each contact link (counted once a day each). */
  contacts?: Partial<Record<ContactChannel, string[]>>
  /** Capped dimensions: the address buckets the row's views came from (promotion, record_views). */
  addresses?: number[]
  /** Views whose reading was measured, their visible seconds, and their deepest scroll (%). */
  reads?: number
  readSeconds?: number
  readScroll?: number
}

/** Samples of one web vital of one page on one day that fell in one bucket (vitals.mjs). */
export type VitalRow = {
  day: string
  page: string
  metric: VitalName
  bucket: number
  count: number
}

/** Writes one batch and its vitals (a written id's retry is a no-op); throws on failure. */
export type WriteBatch = (batchId: string, rows: BatchRow[], vitals?: VitalRow[]) => Promise<void>

/** Whether `visitor` holds its address's share of `experiment` on `day` (shared-state.ts). */
export type HoldsShare = (
  day: string,
  address: string,
  experiment: string,
  visitor: string,
) => Promise<boolean>

export type CollectorOptions = {
  write: WriteBatch
  /** The salt of a day (YYYY-MM-DD), shared by every instance when Redis is configured. */
  saltFor: (day: string) => Promise<Buffer>
  /** True when this visitor's view of this page was not seen in the last `ttlMs` (and marks it). */
  firstSeen: (key: string, ttlMs: number) => Promise<boolean>
  /** Each visitor's reading tally of the day (shared-state.ts: Redis, or this process). */
  reading: ReadingLedger
  /** Whether the site serves this path (lib/known-paths.ts plus the fixed routes). */
  isKnownPath: (path: string) => boolean | Promise<boolean>
  /** Whether a value was named in the Studio: it passes the memory cap, as the database's. */
  isNamed?: (dimension: Dimension, key: string) => boolean | Promise<boolean>
  /** The published experiments (lib/experiments/running.ts); without it, none runs. */
  experiments?: () => readonly ExperimentDefinition[] | Promise<readonly ExperimentDefinition[]>
  holdsShare?: HoldsShare
  /** MEMORY_VALUES_PER_DAY unless told (tests). */
  memoryValuesPerDay?: number
  /** The site's origin, part of the hash so one salt never links two sites. */
  site: string
  /** Deletes the aggregates past their retention; called at most once a (Sao Paulo) day. */
  purge?: () => Promise<unknown>
  now?: () => number
  maxPendingVisitors?: number
  maxBatchVisitors?: number
}

export type RecordResult = 'counted' | 'bot' | 'duplicate' | 'ignored'
/** Who sends a beacon or a form. */
type Client = { ip: string; userAgent: string | null | undefined }

/** The shares of experiments held in this process: today's only, cleared past `max`. */
export function createMemoryShares(max = 200_000) {
  const holders = todaysMap<string>()
  return {
    hold(id: string, day: string, visitor: string): boolean {
      const map = holders(day)
      const holder = map?.get(id)
      if (!map || holder !== undefined) return holder === visitor
      if (map.size >= max) map.clear()
      map.set(id, visitor)
      return true
    },
  }
}

/** The calendar day (YYYY-MM-DD) of `time` in São Paulo (lib/site-time.mjs). */
export const saoPauloDay: (time: number) => string = siteDay

/** Whether a user agent is a bot, headless browser or audit tool (isbot), or missing. */
export function isBotAgent(userAgent: string | null | undefined): boolean {
  return !userAgent || isbot(userAgent)
}

/** The salt as a key object, made once per salt: from a Buffer, each HMAC made one (6x its cost). */
const saltKeys = new WeakMap<Buffer, KeyObject>()
function hmac(salt: Buffer, text: string): string {
  let key = saltKeys.get(salt)
  if (!key) saltKeys.set(salt, (key = createSecretKey(salt)))
  return createHmac('sha256', key).update(text).digest('hex').slice(0, 32)
}

/** The visitor of one day: without the day's salt (deleted within 48 h), nobody can say whose. */
export function visitorHash(salt: Buffer, ip: string, userAgent: string, site: string): string {
  return hmac(salt, `${ip}\n${userAgent}\n${site}`)
}

/**
 * The address's bucket of one day (0-255): addressHash's first byte. Whatever the user agent, so
 * a client rotating it is one; one of 256 values identifies nobody. It decides only whether a
 * value past the day's cap gets a row of its own (record_views).
 */
export function addressBucket(salt: Buffer, ip: string, site: string): number {
  return parseInt(addressHash(salt, ip, site).slice(0, 2), 16)
}

/**
 * The address (IPv6: its /64) of one day as a hash, whatever the user agent. Kept only until its
 * day ends, never in the database: it caps what one address adds (reading, an experiment's share).
 */
export function addressHash(salt: Buffer, ip: string, site: string): string {
  return hmac(salt, `address\n${addressNetwork(ip)}\n${site}`)
}

/** What the buffer holds of one row until it is written. */
const newEntry = (day: string, dimension: Dimension, key: string) => ({
  day,
  dimension,
  key,
  visits: 0,
  visitors: new Set<string>(),
  contacts: {} as Partial<Record<ContactChannel, Set<string>>>,
  addresses: new Set<number>(),
  reads: 0,
  readSeconds: 0,
  readScroll: 0,
})
type Entry = ReturnType<typeof newEntry>
type PendingBatch = { id: string; rows: BatchRow[]; visitors: number; vitals?: VitalRow[] }

/** SQLSTATE classes of a batch the database will never take as it is (22: data, 23: integrity). */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^(22|23)[0-9A-Z]{3}$/.test(code)
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error)
}

function rowHashes(row: BatchRow): number {
  let size = row.visitors.length
  for (const hashes of Object.values(row.contacts ?? {})) size += hashes?.length ?? 0
  return size
}

/** A batch to queue, with a new id (a retry of the same rows keeps it). */
const batchOf = (rows: BatchRow[], vitals?: VitalRow[]): PendingBatch => ({
  id: randomUUID(),
  rows,
  visitors: rows.reduce((sum, row) => sum + rowHashes(row), 0),
  vitals,
})

const clamp = (value: unknown, max: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(0, value)) : 0

/** How long a list of the names saved in the Studio is used before it is read again. */
export const NAMED_REFRESH_MS = 60_000

/**
 * The campaigns named in the Studio, for isNamed: refreshed in the background once
 * NAMED_REFRESH_MS old (a failed read keeps the old list). One saved here counts at once (`add`).
 */
export function namedValuesCache(load: () => Promise<string[]>, now: () => number = Date.now) {
  const names = refreshing(async () => new Set(await load()), {
    ttlMs: NAMED_REFRESH_MS,
    stale: 'serve',
    now,
  })
  return {
    async isNamed(dimension: Dimension, key: string): Promise<boolean> {
      return dimension === 'campaign' && ((await names.get())?.has(key) ?? false)
    },
    add(name: string) {
      names.peek()?.add(name)
    },
  }
}

/**
 * A beacon's or a form's variant is credited when it runs, is this visitor's today and this visitor
 * holds its address's share of the experiment (docs/experiments.md, "Counting").
 */
export function createVariantCredit(
  options: Pick<CollectorOptions, 'site' | 'saltFor' | 'experiments' | 'holdsShare' | 'now'>,
) {
  const now = options.now ?? Date.now
  const memoryShares = createMemoryShares()
  const holdsShare: HoldsShare =
    options.holdsShare ??
    (async (day, address, experiment, visitor) =>
      memoryShares.hold(`${address}:${experiment}`, day, visitor))

  /** Today and this request's visitor and address hashes. */
  async function whoIs(ip: string, userAgent: string, time: number) {
    const day = saoPauloDay(time)
    const salt = await options.saltFor(day)
    return {
      day,
      visitor: visitorHash(salt, ip, userAgent, options.site),
      address: addressHash(salt, ip, options.site),
    }
  }

  /** 'not-theirs': it runs, but this visitor is not served it today, or another holds the share. */
  async function verdictOf(
    variant: string | undefined,
    who: { day: string; visitor: string; address: string },
    time: number,
  ): Promise<'credited' | 'not-running' | 'not-theirs'> {
    const parsed = variant ? parseVariantId(variant) : undefined
    if (!variant || !parsed) return 'not-running'
    const definitions = (await options.experiments?.()) ?? []
    if (!isRunningVariant(definitions, variant, time)) return 'not-running'
    if (!isAssignedVariant(definitions, variant, who.visitor, time)) return 'not-theirs'
    return (await holdsShare(who.day, who.address, parsed.experiment, who.visitor))
      ? 'credited'
      : 'not-theirs'
  }

  return {
    whoIs,
    verdictOf,
    /** A form's variant, by the same rule: from a bot, never. Takes the address's share if free. */
    async creditVariant(input: Client & { variant: string }): Promise<boolean> {
      if (isBotAgent(input.userAgent)) return false
      const time = now()
      const who = await whoIs(input.ip, input.userAgent!, time)
      return (await verdictOf(cleanVariant(input.variant), who, time)) === 'credited'
    },
  }
}

/**
 * Counts views in memory and writes them in batches; a failed batch is retried with its id, so an
 * outage loses nothing and a batch whose answer was lost is not counted twice.
 */
export function createCollector(options: CollectorOptions) {
  const now = options.now ?? Date.now
  const maxPendingVisitors = options.maxPendingVisitors ?? MAX_PENDING_VISITORS
  const maxBatchVisitors = Math.max(1, options.maxBatchVisitors ?? MAX_BATCH_VISITORS)
  const memoryValuesPerDay = options.memoryValuesPerDay ?? MEMORY_VALUES_PER_DAY
  const { whoIs, verdictOf } = createVariantCredit(options)
  let buffer = new Map<string, Entry>()
  let bufferVisitors = 0
  /** Web vitals' samples per day, page, metric and bucket: bounded by the known pages. */
  let vitals = new Map<string, VitalRow>()
  const queue: PendingBatch[] = []
  /** Distinct capped values this instance has seen, per day and dimension. */
  const seenValues = new Map<string, Set<string>>()
  let flushing: Promise<void> | undefined
  let droppedVisitors = 0
  /** Rows the database refused as data (logged once each) and the views they carried. */
  let droppedRows = 0
  let droppedViews = 0
  let lastError: string | undefined
  /** The day of the last purge attempt: one a day per instance is plenty. */
  let purgedDay: string | undefined
  const ownHost = URL.parse(options.site)?.host.toLowerCase()

  function pendingVisitors(): number {
    return bufferVisitors + queue.reduce((sum, batch) => sum + batch.visitors, 0)
  }

  // This bounds one process's memory only; the day's cap is the database's (record_views), shared
  // by every instance. A Studio-named value passes (at most 1,000), or 20,000 invented values
  // would fold a named campaign into (outras) before the database ever saw it.
  async function capped(day: string, dimension: Dimension, key: string): Promise<string> {
    if (!CAPPED.has(dimension) || key === OTHER_KEY) return key
    const id = `${day}\u0000${dimension}`
    let values = seenValues.get(id)
    if (!values) seenValues.set(id, (values = new Set()))
    if (values.has(key)) return key
    if (values.size >= memoryValuesPerDay)
      return (await options.isNamed?.(dimension, key)) ? key : OTHER_KEY
    values.add(key)
    return key
  }

  function entryOf(day: string, dimension: Dimension, key: string): Entry {
    const id = `${day}\u0000${dimension}\u0000${key}`
    let entry = buffer.get(id)
    if (!entry) buffer.set(id, (entry = newEntry(day, dimension, key)))
    return entry
  }

  /** Adds a visitor's hash to a set, unless memory holds too many (the count stays exact). */
  function keep(set: Set<string>, visitor: string) {
    if (set.has(visitor)) return
    if (pendingVisitors() >= maxPendingVisitors) {
      if (droppedVisitors++ === 0)
        console.warn(
          `[analytics] More than ${maxPendingVisitors} visitor hashes wait for the database: ` +
            'views are still counted, some unique visitors are not. Check the database.',
        )
      return
    }
    set.add(visitor)
    bufferVisitors += 1
  }

  return {
    /** Counts one view; resolves once it is in the buffer (never waits for the database). */
    async record(input: Client & { body: BeaconBody }): Promise<RecordResult> {
      if (isBotAgent(input.userAgent)) return 'bot'
      const { body } = input
      const event = body.event ?? 'view'
      const channel = body.channel as ContactChannel
      if (event === 'contact' && !CONTACTS.includes(channel)) return 'ignored'
      // The Studio, previews and review links are never counted (the beacon skips them too).
      if ([body.path, body.landing].some((path) => PRIVATE_PATH.test(cleanPath(path) ?? '')))
        return 'ignored'
      const time = now()
      const who = await whoIs(input.ip, input.userAgent!, time)
      const { day, visitor } = who
      // A variant not running makes the beacon count nowhere; one running but not this visitor's
      // (or its address's share held by another) counts with none: no arm gains an unsure visitor.
      let variant = body.variant
      if (variant !== undefined && variant !== null) {
        const verdict = await verdictOf(cleanVariant(variant), who, time)
        if (verdict === 'not-running') return 'ignored'
        if (verdict === 'not-theirs') variant = undefined
      }
      const known = async (value: unknown) => {
        const path = cleanPath(value)
        return path && (await options.isKnownPath(path)) ? path : OTHER_KEY
      }
      const pageKey = await known(body.path)
      const yesterday = saoPauloDay(time - 86_400_000)
      for (const id of seenValues.keys()) if (id.slice(0, 10) < yesterday) seenValues.delete(id)
      const referrer = cleanHost(body.referrer)
      const keys = dimensionKeys({
        page: pageKey,
        landing: body.landing ? await known(body.landing) : pageKey,
        campaign: cleanValue(body.utm_campaign),
        source: cleanValue(body.utm_source)?.toLowerCase(),
        medium: cleanValue(body.utm_medium),
        referrer: referrer === ownHost ? undefined : referrer,
        variant: cleanVariant(variant),
        userAgent: input.userAgent!,
      }) as Record<Dimension, string>

      // A read counts what this visitor's counted views of the page allow (reading-ledger.ts).
      const grant =
        event === 'read'
          ? await options.reading.read(
              day,
              visitor,
              pageKey,
              {
                seconds: clamp(body.seconds, READ_SECONDS_PER_DAY),
                scroll: clamp(body.scroll, 100),
                first: body.first === true,
              },
              who.address,
            )
          : undefined
      if (event === 'read' && (!grant || (!grant.read && !grant.seconds && !grant.scroll)))
        return 'ignored'
      if (event === 'view' && !(await options.firstSeen(`${day}:${visitor}:${pageKey}`, DEDUPE_MS)))
        return 'duplicate'
      // addressBucket: the address hash's first byte.
      const address = parseInt(who.address.slice(0, 2), 16)
      for (const dimension of DIMENSIONS) {
        // A visit enters once: the entry page counts the view that opened the visit only.
        if (event === 'view' && ENTRY_ONLY.has(dimension) && !body.entry) continue
        const entry = entryOf(day, dimension, await capped(day, dimension, keys[dimension]))
        if (grant) {
          if (grant.read) entry.reads += 1
          entry.readSeconds += grant.seconds
          entry.readScroll += grant.scroll
        } else if (event === 'contact') keep((entry.contacts[channel] ??= new Set()), visitor)
        else {
          entry.visits += 1
          // The views still count when memory is full; only this visitor may be missed.
          keep(entry.visitors, visitor)
          // At most 256 a row: no bound needed.
          if (CAPPED.has(dimension) && entry.key !== OTHER_KEY) entry.addresses.add(address)
        }
      }
      if (event === 'view') await options.reading.viewed(day, visitor, pageKey, who.address)
      // The page load's speed, with the view's first report only (one read per counted view of
      // the visitor and its address). A figure no browser makes is refused, one too large capped.
      if (grant?.read)
        for (const { name } of VITAL_SPECS) {
          const bucket = vitalBucket(name, body[name])
          if (bucket === undefined) continue
          const id = `${day}\u0000${pageKey}\u0000${name}\u0000${bucket}`
          const row = vitals.get(id)
          if (row) row.count += 1
          else vitals.set(id, { day, page: pageKey, metric: name, bucket, count: 1 })
        }
      return 'counted'
    },

    /** Writes the queued batches, then the buffer; never rejects (a failure stays queued). */
    flush(): Promise<void> {
      if (flushing) return flushing
      flushing = (async () => {
        if (buffer.size > 0) {
          // Cut into batches of at most maxBatchVisitors hashes, each with its own id: a row's
          // visits go with its first part, its later parts carry hashes only (visits 0).
          let rows: BatchRow[] = []
          let size = 0
          for (const entry of buffer.values()) {
            const visitors = [...entry.visitors]
            let start = 0
            do {
              if (size >= maxBatchVisitors) {
                queue.push(batchOf(rows))
                rows = []
                size = 0
              }
              const part = visitors.slice(start, start + maxBatchVisitors - size)
              const row: BatchRow = {
                day: entry.day,
                dimension: entry.dimension,
                key: entry.key,
                visits: start === 0 ? entry.visits : 0,
                visitors: part,
              }
              if (start === 0) {
                // The contacts, the addresses and the reading go with the row's first part.
                if (entry.addresses.size > 0) row.addresses = [...entry.addresses]
                const contacts = Object.entries(entry.contacts).filter(([, set]) => set.size > 0)
                if (contacts.length > 0)
                  row.contacts = Object.fromEntries(contacts.map(([c, set]) => [c, [...set]]))
                if (entry.reads || entry.readSeconds || entry.readScroll) {
                  row.reads = entry.reads
                  row.readSeconds = Math.round(entry.readSeconds)
                  row.readScroll = Math.round(entry.readScroll)
                }
              }
              rows.push(row)
              size += rowHashes(row)
              start += part.length
            } while (start < visitors.length)
          }
          if (rows.length > 0) queue.push(batchOf(rows))
          buffer = new Map()
          bufferVisitors = 0
        }
        if (vitals.size > 0) {
          // With the batch of the reads they came with (or one of their own).
          const samples = [...vitals.values()]
          const last = queue.at(-1)
          if (last && !last.vitals) last.vitals = samples
          else queue.push(batchOf([], samples))
          vitals = new Map()
        }
        for (let first = true; queue.length > 0; first = false) {
          // Let the beacons waiting on this thread in between two batches.
          if (!first) await new Promise((resolve) => setImmediate(resolve))
          const batch = queue[0]!
          try {
            await options.write(batch.id, batch.rows, batch.vitals)
          } catch (error) {
            const message = errorMessage(error)
            if (isDataError(error)) {
              // Refused as data, for good, and nothing written (one transaction): split with new
              // ids, vitals from rows, then rows in halves, until the one at fault is alone and
              // dropped (logged). The rest, and every later batch, are written.
              queue.shift()
              const { rows, vitals: samples } = batch
              const half = Math.ceil(rows.length / 2)
              if (samples && rows.length > 0) queue.unshift(batchOf(rows), batchOf([], samples))
              else if (rows.length > 1)
                queue.unshift(batchOf(rows.slice(0, half)), batchOf(rows.slice(half)))
              else if (rows.length === 0) {
                console.warn(
                  `[analytics] Dropped ${samples?.length ?? 0} web vitals row(s) the database refuses (${message}).`,
                )
              } else {
                const row = rows[0]!
                droppedRows += 1
                droppedViews += row.dimension === 'site' ? row.visits : 0
                console.warn(
                  `[analytics] Dropped one row the database refuses (${message}): ` +
                    `${row.dimension} on ${row.day}, ${row.visits} view(s); ${droppedRows} dropped so far.`,
                )
              }
              continue
            }
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
            console.warn(
              `[analytics] Could not delete the aggregates past retention (${errorMessage(error)}).`,
            )
          }
        }
      })().finally(() => {
        flushing = undefined
      })
      return flushing
    },

    /** What waits in memory (for the health check and the tests). */
    pending() {
      const siteViews = (rows: Iterable<{ dimension: string; visits: number }>) =>
        [...rows].reduce((sum, row) => sum + (row.dimension === 'site' ? row.visits : 0), 0)
      return {
        views:
          siteViews(buffer.values()) + queue.reduce((sum, batch) => sum + siteViews(batch.rows), 0),
        batches: queue.length,
        visitors: pendingVisitors(),
        droppedRows,
        droppedViews,
      }
    },
  }
}

export type Collector = ReturnType<typeof createCollector>

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
  CONTACT_CHANNELS,
  DIMENSION_SPECS,
  dimensionKeys,
  MEMORY_VALUES_PER_DAY,
  OTHER_KEY,
  READ_SECONDS_PER_DAY,
} from './measures.mjs'
import type { ReadingLedger } from './reading-ledger'
import { VITAL_SPECS, vitalBucket, type VitalName } from './vitals.mjs'
// Counting views without cookies (docs/analytics.md): the pure part, with no I/O of its own, so
// that every rule (bots, hashing, caps, dedupe, buffering, retries) is unit-tested. Salts, the
// dedupe memory, the known paths and the database come in as functions (lib/analytics/index.ts).

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
/** Dimensions whose values visitors choose (measures.mjs), held to a few distinct values a day. */
const CAPPED: ReadonlySet<Dimension> = new Set(
  DIMENSION_SPECS.flatMap((spec) => (spec.capped ? [spec.name] : [])),
)
export { MEMORY_VALUES_PER_DAY } from './measures.mjs'
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

/**
 * What the beacon sends (app/api/analytics/view): the page, the visit's first touch (entry page,
 * UTM tags, referrer host) and what happened: a view (`entry` on the visit's first), a click on a
 * contact link, or the end of a view (`read`: seconds visible and deeper scroll since the last
 * report of this view, `first` on its first report).
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

/**
 * Writes one batch, and the vitals' samples that go with it; the id makes a retry of a batch
 * already written a no-op. Throws on failure.
 */
export type WriteBatch = (batchId: string, rows: BatchRow[], vitals?: VitalRow[]) => Promise<void>

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
  /**
   * Whether a value was named in the Studio (analytics.named_values): it passes this process's
   * memory cap, as the database's cap. Asked only past that cap.
   */
  isNamed?: (dimension: Dimension, key: string) => boolean | Promise<boolean>
  /**
   * The published experiments (lib/experiments/running.ts). A beacon naming a variant counts only
   * when it runs and is the one this visitor is served (creditVariant); without this, none runs.
   */
  experiments?: () => readonly ExperimentDefinition[] | Promise<readonly ExperimentDefinition[]>
  /**
   * Whether `visitor` holds its address's share of `experiment` on `day` (the first visitor
   * counted for it from that address takes it; shared-state.ts). This process's memory unless told.
   */
  holdsShare?: (
    day: string,
    address: string,
    experiment: string,
    visitor: string,
  ) => Promise<boolean>
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

/** The shares of experiments held in this process: today's only, cleared past `max`. */
export function createMemoryShares(max = 200_000) {
  let today = ''
  let holders = new Map<string, string>()
  return {
    hold(id: string, day: string, visitor: string): boolean {
      if (day !== today) {
        if (day < today) return false
        today = day
        holders = new Map()
      }
      const holder = holders.get(id)
      if (holder !== undefined) return holder === visitor
      if (holders.size >= max) holders.clear()
      holders.set(id, visitor)
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

/**
 * The address's bucket of one day, 0 to 255, whatever the user agent: the first byte of the same
 * HMAC over the address (IPv6: its /64) alone. Three different buckets are three different
 * addresses, so a client rotating its user agent (or its addresses within one /64) is one; and
 * one of 256 values tells nothing about whose address it was, so storing it adds no identifier.
 * It decides only whether a value past the day's cap gets a row of its own (record_views).
 */
export function addressBucket(salt: Buffer, ip: string, site: string): number {
  return parseInt(addressHash(salt, ip, site).slice(0, 2), 16)
}

/**
 * The address of one day as a hash, whatever the user agent: the same HMAC as addressBucket (its
 * first byte) cut to 128 bits. Kept, like the visitor hash, only until its day ends and never in
 * the database: it caps what one address adds (reading, an experiment's share).
 */
export function addressHash(salt: Buffer, ip: string, site: string): string {
  return createHmac('sha256', saltKey(salt))
    .update(`address\n${addressNetwork(ip)}\n${site}`)
    .digest('hex')
    .slice(0, 32)
}

/** The keys one view counts under, before the caps: each dimension's own (measures.mjs). */
export function viewKeys(
  body: BeaconBody,
  pageKey: string,
  ownHost?: string,
  landingKey = pageKey,
  userAgent?: string,
): Record<Dimension, string> {
  let referrer = cleanHost(body.referrer)
  if (referrer && ownHost && referrer === ownHost) referrer = undefined
  return dimensionKeys({
    page: pageKey,
    landing: landingKey,
    campaign: cleanValue(body.utm_campaign),
    source: cleanValue(body.utm_source)?.toLowerCase(),
    medium: cleanValue(body.utm_medium),
    referrer,
    // Checked against the running experiments before (record): here only cleaned.
    variant: cleanVariant(body.variant),
    userAgent,
  }) as Record<Dimension, string>
}

type Entry = {
  day: string
  dimension: Dimension
  key: string
  visits: number
  visitors: Set<string>
  contacts: Partial<Record<ContactChannel, Set<string>>>
  addresses: Set<number>
  reads: number
  readSeconds: number
  readScroll: number
}
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

const clamp = (value: unknown, max: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(0, value)) : 0

/** How long a list of the names saved in the Studio is used before it is read again. */
export const NAMED_REFRESH_MS = 60_000

/**
 * The campaigns named in the Studio, for the collector's isNamed: read on first need, then again in
 * the background once NAMED_REFRESH_MS old (a failed read is retried then, the old list kept). A
 * name saved through this instance counts at once (`add`), one saved through another within
 * NAMED_REFRESH_MS.
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
 * Whether a variant named by a beacon or a form may be credited (docs/experiments.md, "Counting"):
 * it runs, it is the one this visitor is served (the page's own assignment, from today's hash),
 * and this visitor holds its address's share of the experiment today. Otherwise it counts nowhere.
 */
export function createVariantCredit(
  options: Pick<CollectorOptions, 'site' | 'saltFor' | 'experiments' | 'holdsShare' | 'now'>,
) {
  const now = options.now ?? Date.now
  const memoryShares = createMemoryShares()
  const holdsShare =
    options.holdsShare ??
    (async (day: string, address: string, experiment: string, visitor: string) =>
      memoryShares.hold(`${address}:${experiment}`, day, visitor))

  /** Today's salt and this request's visitor and address hashes. */
  async function whoIs(ip: string, userAgent: string, time: number) {
    const day = saoPauloDay(time)
    const salt = await options.saltFor(day)
    return {
      day,
      salt,
      visitor: visitorHash(salt, ip, userAgent, options.site),
      address: addressHash(salt, ip, options.site),
    }
  }

  /**
   * 'credited'; 'not-running' (ended, never existed, forged); or 'not-theirs': it runs, but this
   * visitor is not served it today, or another user agent holds its address's share.
   */
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
    async creditVariant(input: {
      ip: string
      userAgent: string | null | undefined
      variant: string
    }): Promise<boolean> {
      if (isBotAgent(input.userAgent)) return false
      const time = now()
      const who = await whoIs(input.ip, input.userAgent!, time)
      return (await verdictOf(cleanVariant(input.variant), who, time)) === 'credited'
    },
  }
}

/**
 * Counts views in memory and writes them in batches. A batch that fails stays queued with its id
 * and is retried, in order, at the next flush, so a database outage loses nothing and a batch
 * whose answer was lost is not counted twice.
 */
export function createCollector(options: CollectorOptions) {
  const now = options.now ?? Date.now
  const maxPendingVisitors = options.maxPendingVisitors ?? MAX_PENDING_VISITORS
  const maxBatchVisitors = Math.max(1, options.maxBatchVisitors ?? MAX_BATCH_VISITORS)
  const memoryValuesPerDay = options.memoryValuesPerDay ?? MEMORY_VALUES_PER_DAY
  const credit = createVariantCredit(options)
  const { whoIs, verdictOf } = credit
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

  // The day's cap itself is the database's (record_views: 200 values, then those promoted or
  // named), shared by every instance; this only bounds one process's memory. A name saved in the
  // Studio passes it too (at most 1,000 names, so memory stays bounded): otherwise 20,000
  // invented values would fold the campaign marketing named into (outras) before the database
  // ever saw it.
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

  function forgetOldDays(today: string) {
    for (const id of seenValues.keys()) {
      if (id.slice(0, 10) < today) seenValues.delete(id)
    }
  }

  function entryOf(day: string, dimension: Dimension, key: string): Entry {
    const id = `${day}\u0000${dimension}\u0000${key}`
    let entry = buffer.get(id)
    if (!entry)
      buffer.set(
        id,
        (entry = {
          day,
          dimension,
          key,
          visits: 0,
          visitors: new Set(),
          contacts: {},
          addresses: new Set(),
          reads: 0,
          readSeconds: 0,
          readScroll: 0,
        }),
      )
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

  function add(day: string, dimension: Dimension, key: string, visitor: string, address: number) {
    const entry = entryOf(day, dimension, key)
    entry.visits += 1
    // The views still count when memory is full; only this visitor may be missed.
    keep(entry.visitors, visitor)
    // At most 256 a row: no bound needed.
    if (CAPPED.has(dimension) && key !== OTHER_KEY) entry.addresses.add(address)
  }

  return {
    /** Whether a form's variant is credited to its lead (createVariantCredit). */
    creditVariant: credit.creditVariant,

    /** Counts one view; resolves once it is in the buffer (never waits for the database). */
    async record(input: {
      ip: string
      userAgent: string | null | undefined
      body: BeaconBody
    }): Promise<RecordResult> {
      if (isBotAgent(input.userAgent)) return 'bot'
      const { body } = input
      const event = body.event ?? 'view'
      if (event === 'contact' && !CONTACTS.includes(body.channel as ContactChannel))
        return 'ignored'
      // The Studio, previews and review links are never counted (the beacon skips them too).
      if ([body.path, body.landing].some((path) => PRIVATE_PATH.test(cleanPath(path) ?? '')))
        return 'ignored'
      const time = now()
      const who = await whoIs(input.ip, input.userAgent!, time)
      const { day, salt, visitor } = who
      // A variant that does not run (ended, never existed, forged) makes the beacon count nowhere,
      // not even as a view. One that runs but is not this visitor's (not its assignment today, or
      // its address's share held by another user agent: an office behind one address, a rotated
      // user agent) counts the view with no variant: the page's figures stay whole, no arm gains
      // a visitor it did not surely have (docs/experiments.md).
      let counted = body
      if (body.variant !== undefined && body.variant !== null) {
        const verdict = await verdictOf(cleanVariant(body.variant), who, time)
        if (verdict === 'not-running') return 'ignored'
        if (verdict === 'not-theirs') counted = { ...body, variant: undefined }
      }
      const known = async (value: unknown) => {
        const path = cleanPath(value)
        return path && (await options.isKnownPath(path)) ? path : OTHER_KEY
      }
      const pageKey = await known(body.path)
      forgetOldDays(saoPauloDay(time - 86_400_000))

      const landingKey = body.landing ? await known(body.landing) : pageKey
      const keys = viewKeys(counted, pageKey, ownHost, landingKey, input.userAgent!)

      if (event === 'read') {
        // The end of a view (Plausible's engagement), credited like the view itself: its page,
        // and its visit's entry page and first touch. Only what this visitor's counted views of
        // this page allow today counts (reading-ledger.ts).
        const grant = await options.reading.read(
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
        if (!grant || (!grant.read && !grant.seconds && !grant.scroll)) return 'ignored'
        for (const dimension of DIMENSIONS) {
          const entry = entryOf(day, dimension, await capped(day, dimension, keys[dimension]))
          if (grant.read) entry.reads += 1
          entry.readSeconds += grant.seconds
          entry.readScroll += grant.scroll
        }
        // The page load's speed, with the view's first report only: the ledger grants one read
        // per counted view of the visitor and of its address, so neither adds more than one
        // sample per view. A figure no browser produces is refused, one too large capped.
        if (grant.read)
          for (const { name } of VITAL_SPECS) {
            const bucket = vitalBucket(name, body[name])
            if (bucket === undefined) continue
            const id = `${day}\u0000${pageKey}\u0000${name}\u0000${bucket}`
            const row = vitals.get(id)
            if (row) row.count += 1
            else vitals.set(id, { day, page: pageKey, metric: name, bucket, count: 1 })
          }
        return 'counted'
      }

      if (event === 'contact') {
        // Credited like a lead: the page of the click, the visit's entry page and first touch.
        const channel = body.channel as ContactChannel
        for (const dimension of DIMENSIONS) {
          const entry = entryOf(day, dimension, await capped(day, dimension, keys[dimension]))
          keep((entry.contacts[channel] ??= new Set()), visitor)
        }
        return 'counted'
      }

      if (!(await options.firstSeen(`${day}:${visitor}:${pageKey}`, DEDUPE_MS))) return 'duplicate'
      const address = addressBucket(salt, input.ip, options.site)
      for (const dimension of DIMENSIONS) {
        // A visit enters once: the entry page counts the view that opened the visit only.
        if (ENTRY_ONLY.has(dimension) && !body.entry) continue
        add(day, dimension, await capped(day, dimension, keys[dimension]), visitor, address)
      }
      await options.reading.viewed(day, visitor, pageKey, who.address)
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
          close()
          buffer = new Map()
          bufferVisitors = 0
        }
        if (vitals.size > 0) {
          // With the batch of the reads they came with (or one of their own).
          const samples = [...vitals.values()]
          const last = queue.at(-1)
          if (last && !last.vitals) last.vitals = samples
          else queue.push({ id: randomUUID(), rows: [], visitors: 0, vitals: samples })
          vitals = new Map()
        }
        let first = true
        while (queue.length > 0) {
          // Let the beacons waiting on this thread in between two batches.
          if (!first) await new Promise((resolve) => setImmediate(resolve))
          first = false
          const batch = queue[0]!
          try {
            await options.write(batch.id, batch.rows, batch.vitals)
          } catch (error) {
            const message = errorMessage(error)
            if (isDataError(error)) {
              // The database refuses this batch as data, and always will: nothing of it was
              // written (one transaction), so it is cut in two, each half with a new id, until
              // the row at fault is alone; that row is dropped, counted and logged once. The
              // other rows, and every later batch, are written.
              queue.shift()
              if (batch.vitals ? batch.rows.length > 0 : batch.rows.length > 1) {
                // The vitals' samples go apart first: a bad sample cannot drop a row, nor a bad
                // row the samples.
                const half = Math.ceil(batch.rows.length / 2)
                const parts: PendingBatch[] = (
                  batch.vitals ? [batch.rows] : [batch.rows.slice(0, half), batch.rows.slice(half)]
                ).map((rows) => ({
                  id: randomUUID(),
                  rows,
                  visitors: rows.reduce((sum, row) => sum + rowHashes(row), 0),
                }))
                if (batch.vitals)
                  parts.push({ id: randomUUID(), rows: [], visitors: 0, vitals: batch.vitals })
                queue.unshift(...parts)
              } else if (batch.rows.length === 0) {
                console.warn(
                  `[analytics] Dropped ${batch.vitals?.length ?? 0} web vitals row(s) the database refuses (${message}).`,
                )
              } else {
                const row = batch.rows[0]!
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
    pending(): {
      views: number
      batches: number
      visitors: number
      droppedRows: number
      droppedViews: number
    } {
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

// The one Redis connection of this process (REDIS_URL), shared by the cache handler (which Next
// loads outside the app bundle, hence JavaScript with JSDoc) and the rate limits; it lives on
// globalThis so both copies of this module share it. Redis is an optimisation, never a condition
// for serving: nobody waits for a connection, every command is bounded, each caller falls back to
// what this process can do alone, and each change of state is logged once (docs/deploying.md,
// "When Redis fails").

import { createClient } from 'redis'

/** A healthy Redis answers in about a millisecond; past this, the caller goes on without it. */
export const COMMAND_TIMEOUT_MS = 1000
/** Longest pause between two reconnection attempts, so that a repaired Redis is used again soon. */
const RECONNECT_MAX_MS = 2000
/** The production period of the fallback below (docs/deploying.md, "When Redis fails"). */
export const DEFAULT_FALLBACK_REVALIDATE_SECONDS = 15

/**
 * REDIS_FALLBACK_REVALIDATE_SECONDS, a test knob that can only shorten the period (the Redis
 * fault tests wait for it); read here, not in lib/env.ts, because Next loads the cache handler
 * outside the app bundle (like REDIS_URL above).
 * @returns {number}
 */
export function fallbackRevalidateSeconds() {
  const name = 'REDIS_FALLBACK_REVALIDATE_SECONDS'
  const value = process.env.REDIS_FALLBACK_REVALIDATE_SECONDS?.trim()
  if (!value) return DEFAULT_FALLBACK_REVALIDATE_SECONDS
  const seconds = Number(value)
  if (!/^\d+$/.test(value) || seconds < 1 || seconds > DEFAULT_FALLBACK_REVALIDATE_SECONDS)
    throw new Error(
      `${name}="${value}" must be a whole number from 1 to ${DEFAULT_FALLBACK_REVALIDATE_SECONDS}.`,
    )
  return seconds
}

/**
 * While instances cannot share publishes, each re-checks the content on this period instead
 * (lib/cache/cache-handler.mjs), so a publish reaches every instance within about this long.
 */
export const FALLBACK_REVALIDATE_SECONDS = fallbackRevalidateSeconds()

const GLOBAL_KEY = Symbol.for('vigia.redis')

/**
 * @typedef {'connecting' | 'ready' | 'unreachable' | 'credentials' | 'slow'} ConnectionState
 * @typedef {{ ok: boolean, problem?: string, readAt?: string }} PartHealth
 * @typedef {{
 *   url: string,
 *   where: string,
 *   client: import('redis').RedisClientType,
 *   state: ConnectionState,
 *   wasReady: boolean,
 *   refusals: Map<string, string>,
 *   reporters: Map<string, () => PartHealth>,
 *   sharedTags?: { share: (tags: string[]) => Promise<void> },
 * }} Connection
 */

/** REDIS_URL as set, or undefined: Redis is used only when it is set. */
export function redisUrl() {
  return process.env.REDIS_URL?.trim() || undefined
}

/** Prefix of every key this site writes, so that one Redis can serve several sites. */
export function keyPrefix() {
  return process.env.REDIS_KEY_PREFIX?.trim() || 'vigia:'
}

/** The URL without user name or password, for the log. */
function describe(url) {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return 'REDIS_URL'
  }
}

const CONSEQUENCES =
  'Pages are still served, each instance from its own cache; a publish reaches the other ' +
  `instances within ${FALLBACK_REVALIDATE_SECONDS} s instead of at once, and demo requests are ` +
  'counted by each instance on its own.'

/** @param {unknown} error */
function errorText(error) {
  if (!(error instanceof Error)) return String(error)
  // Node reports a refused connection to a name with several addresses as an AggregateError
  // without a message; its code says it.
  return error.message || /** @type {{ code?: string }} */ (error).code || error.name
}

/** @param {unknown} error */
function isCredentialsError(error) {
  return /^(WRONGPASS|NOAUTH|NOPERM this user has no permissions to run the 'auth')/i.test(
    errorText(error),
  )
}

/**
 * Redis's own error replies start with an upper-case code (NOPERM, READONLY, OOM, ERR...); the
 * client's errors about the connection do not. Told by the text because the client's ErrorReply
 * class differs between the bundled and the unbundled copy of this module.
 * @param {unknown} error
 */
function isErrorReply(error) {
  return error instanceof Error && /^[A-Z][A-Z_]+ /.test(error.message)
}

/** @param {Connection} conn @param {ConnectionState} state @param {string} [reason] */
function enter(conn, state, reason) {
  if (conn.state === state) return
  conn.state = state
  if (state === 'ready') {
    const first = !conn.wasReady
    conn.wasReady = true
    if (first) {
      console.info(
        `[redis] Connected to Redis at ${conn.where}: publishes are shared between instances ` +
          'and demo requests are counted in Redis.',
      )
    } else {
      console.info(
        `[redis] Redis at ${conn.where} answers again: publishes are shared between instances ` +
          'and demo requests are counted in Redis again.',
      )
    }
    return
  }
  if (state === 'connecting') return
  const what = {
    unreachable: `Cannot reach Redis at ${conn.where} (${reason}). ${CONSEQUENCES} Check that Redis is running and that REDIS_URL points to it; this instance reconnects by itself.`,
    credentials: `Redis at ${conn.where} refused the credentials in REDIS_URL (${reason}). ${CONSEQUENCES} Fix the user name and password in REDIS_URL, or that user's ACL in Redis; this instance retries by itself.`,
    slow: `Redis at ${conn.where} did not answer within ${COMMAND_TIMEOUT_MS} ms. ${CONSEQUENCES} Check the load on the Redis server and the network to it; this instance goes back to Redis as soon as it answers in time.`,
  }[state]
  console.warn(`[redis] ${what}`)
}

/**
 * A connection of its own (getRedis() keeps the process's one): for tests that play several
 * instances in one process.
 * @param {string} url @returns {Connection}
 */
export function connect(url) {
  const client = createClient({
    url,
    // A command sent while disconnected fails at once (the caller falls back) instead of waiting
    // in a queue until Redis is back.
    disableOfflineQueue: true,
    socket: {
      // Generous: it only matters for a host that drops packets (a refused connection fails at
      // once), nothing waits for it, and a server busy starting up must not mistake its own
      // stalled event loop for an unreachable Redis.
      connectTimeout: 10_000,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, RECONNECT_MAX_MS),
    },
  })
  /** @type {Connection} */
  const conn = {
    url,
    where: describe(url),
    client: /** @type {import('redis').RedisClientType} */ (/** @type {unknown} */ (client)),
    state: 'connecting',
    wasReady: false,
    refusals: new Map(),
    reporters: new Map(),
  }
  // The client emits 'error' on every failed attempt; without a listener Node would crash.
  client.on('error', (error) => {
    if (isCredentialsError(error)) enter(conn, 'credentials', errorText(error))
    else enter(conn, 'unreachable', errorText(error))
  })
  client.on('ready', () => enter(conn, 'ready'))
  client.connect().catch(() => {
    // Reported by the 'error' listener; the client keeps reconnecting.
  })
  return conn
}

/**
 * The process's connection, opened on first use; undefined when REDIS_URL is not set or is not
 * a URL the client accepts (lib/env.ts reports that to the app).
 * @returns {Connection | undefined}
 */
export function getRedis() {
  const url = redisUrl()
  if (!url) return undefined
  const store = /** @type {Record<symbol, Connection | undefined>} */ (
    /** @type {unknown} */ (globalThis)
  )
  const existing = store[GLOBAL_KEY]
  if (existing?.url === url) return existing
  try {
    store[GLOBAL_KEY] = connect(url)
  } catch (error) {
    console.error(`[redis] REDIS_URL cannot be used (${errorText(error)}); Redis is not used.`)
    return undefined
  }
  return store[GLOBAL_KEY]
}

/** Whether a caller on a visitor's request should try Redis at all, or go straight on without it. */
export function isUsable(/** @type {Connection} */ conn) {
  return conn.client.isReady && conn.state === 'ready'
}

/** Thrown instead of waiting when Redis cannot take a command now. */
export class RedisUnavailableError extends Error {
  constructor(/** @type {string} */ message) {
    super(message)
    this.name = 'RedisUnavailableError'
  }
}

/**
 * Runs one Redis call for `area` (a short name such as "tags" or "rate-limit"), bounded by
 * COMMAND_TIMEOUT_MS, and keeps the connection's state: a timeout marks Redis slow, a refused
 * command (ACL, read-only replica) is logged once for its area, a success clears both.
 * Throws RedisUnavailableError without waiting when the client is not connected.
 * @template T
 * @param {Connection} conn
 * @param {string} area
 * @param {(client: import('redis').RedisClientType) => Promise<T>} call
 * @returns {Promise<T>}
 */
export async function run(conn, area, call) {
  if (!conn.client.isReady) throw new RedisUnavailableError(`Redis is not connected (${area})`)
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new RedisUnavailableError(`Redis did not answer within ${COMMAND_TIMEOUT_MS} ms`)),
      COMMAND_TIMEOUT_MS,
    )
  })
  const pending = call(conn.client)
  // A late answer or failure of a call we stopped waiting for must not become an unhandled rejection.
  pending.catch(() => {})
  try {
    const result = await Promise.race([pending, timeout])
    if (conn.state !== 'ready') enter(conn, 'ready')
    if (conn.refusals.delete(area)) {
      console.info(`[redis] Redis accepts this instance's ${area} commands again.`)
    }
    return /** @type {T} */ (result)
  } catch (error) {
    if (error instanceof RedisUnavailableError) {
      if (conn.client.isReady) enter(conn, 'slow')
    } else if (isCredentialsError(error)) {
      enter(conn, 'credentials', errorText(error))
    } else if (isErrorReply(error)) {
      // NOPERM (the ACL), READONLY (a replica after a failover), OOM...: Redis is there, but
      // refuses this one thing. Logged once per area until it works again.
      if (!conn.refusals.has(area)) {
        conn.refusals.set(area, errorText(error))
        console.warn(
          `[redis] Redis at ${conn.where} refused this instance's ${area} commands (${errorText(error)}). ` +
            `${REFUSAL_CONSEQUENCES[area] ?? ''}Give the user in REDIS_URL read and write access to ` +
            `the keys ${keyPrefix()}* (for example ACL SETUSER <user> on ~${keyPrefix()}* +@all -@dangerous) ` +
            'and point REDIS_URL at the primary, not a replica.',
        )
      }
    }
    throw error
  } finally {
    clearTimeout(timer)
  }
}

/** The areas that run commands: the shared cache tags and the demo-request limit. */
export const TAGS_AREA = 'tags'
export const RATE_LIMIT_AREA = 'rate-limit'

/** @type {Record<string, string>} */
const REFUSAL_CONSEQUENCES = {
  [TAGS_AREA]: `Publishes are not shared: each instance re-checks the content every ${FALLBACK_REVALIDATE_SECONDS} s instead. `,
  [RATE_LIMIT_AREA]: 'Demo requests are counted by each instance on its own. ',
}

/** Registers how one part that uses Redis reports its health (for /api/health). */
export function reportHealth(
  /** @type {Connection} */ conn,
  /** @type {string} */ part,
  /** @type {() => PartHealth} */ reporter,
) {
  conn.reporters.set(part, reporter)
}

/** Why Redis cannot be used right now, in a few words, or undefined when it can. */
export function connectionProblem(/** @type {Connection} */ conn) {
  switch (conn.state) {
    case 'ready':
      return undefined
    case 'connecting':
      return 'connecting to Redis'
    case 'unreachable':
      return 'Redis unreachable'
    case 'credentials':
      return 'Redis refused the credentials in REDIS_URL'
    case 'slow':
      return `Redis slower than ${COMMAND_TIMEOUT_MS} ms`
  }
}

/**
 * The health of the two parts that use Redis, for /api/health; undefined without REDIS_URL.
 * @returns {{ sharedCache: PartHealth, rateLimiter: PartHealth } | undefined}
 */
export function redisHealth() {
  const conn = getRedis()
  if (!conn) return undefined
  const problem = connectionProblem(conn)
  const sharedCache = conn.reporters.get('sharedCache')?.() ?? {
    ok: problem === undefined,
    ...(problem ? { problem } : {}),
  }
  const rateLimiter =
    isUsable(conn) && !conn.refusals.has(RATE_LIMIT_AREA)
      ? { ok: true }
      : {
          ok: false,
          problem: `${problem ?? 'Redis refused the rate-limit commands'}: demo requests are counted by each instance on its own`,
        }
  return { sharedCache, rateLimiter }
}

/**
 * Counts a revalidation of these tags in Redis, where every instance reads it within a second
 * (lib/cache/cache-handler.mjs). Resolves once Redis has it; rejects when it does not (Redis
 * unreachable, slow, refusing us), and the tags are then counted as soon as Redis answers again.
 * @param {string[]} tags
 */
export async function shareRevalidation(tags) {
  const conn = getRedis()
  if (!conn) throw new RedisUnavailableError('REDIS_URL is not set')
  if (!conn.sharedTags) throw new RedisUnavailableError('the shared cache has not started yet')
  await conn.sharedTags.share(tags)
}

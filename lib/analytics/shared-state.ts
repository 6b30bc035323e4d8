import { randomBytes } from 'node:crypto'

import type { Connection } from '@/lib/redis/connection.mjs'
import { isUsable, keyPrefix, run } from '@/lib/redis/connection.mjs'
import { ExpiringKeys, redisSetOnce } from '@/lib/redis/set-once'

import { createMemoryShares, type HoldsShare } from './collect'
import { READ_SECONDS_PER_DAY } from './measures.mjs'
import { createMemoryLedger, type ReadingLedger } from './reading-ledger'
import { REPORT_TIME_ZONE } from './report-schema'
import { SALT_MAX_AGE_HOURS } from './retention'

// What instances must share to count one visitor once: the day's salt, the "seen in the last
// 10 s" marks, reading tallies and experiments' shares. In Redis when it answers (never waited on
// when it is not connected); in this process otherwise, where a visitor seen by two instances
// during an outage counts twice that day: views are never lost.

export const ANALYTICS_AREA = 'analytics'
/** The salt lives at most this long after its day starts, not after it was made (retention.ts). */
export const SALT_TTL_SECONDS = SALT_MAX_AGE_HOURS * 3600
const MEMORY_SEEN_MAX = 200_000

/** When a Sao Paulo day (YYYY-MM-DD) starts, in ms since the epoch, at that day's offset. */
export function dayStart(day: string): number {
  const noon = Date.parse(`${day}T12:00:00Z`)
  // sv-SE writes "YYYY-MM-DD HH:MM:SS": UTC noon's wall time there, less UTC noon, is the offset.
  const local = new Date(noon).toLocaleString('sv-SE', { timeZone: REPORT_TIME_ZONE })
  return Date.parse(`${day}T00:00:00Z`) - (Date.parse(`${local.replace(' ', 'T')}Z`) - noon)
}

/** The day (YYYY-MM-DD) `days` after this one. */
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** When a Sao Paulo day ends (the next one's midnight), in ms since the epoch. */
export function dayEnd(day: string): number {
  return dayStart(dayAfter(day, 1))
}

/**
 * reading-ledger.ts's rule in one atomic step, so two instances cannot both spend one visitor's
 * allowance. KEYS: the tallies (hashes) of one visitor's page today, and of its address's when
 * given. ARGV: 'view' and the day's end (ms); or 'read', first (0/1), seconds, scroll and
 * READ_SECONDS_PER_DAY. A read answers {1, read, seconds, scroll}, or {0} without a counted view.
 */
const READING_SCRIPT = `
if ARGV[1] == 'view' then
  for _, key in ipairs(KEYS) do
    redis.call('HINCRBY', key, 'views', 1)
    redis.call('PEXPIREAT', key, ARGV[2])
  end
  return {1}
end
local read, s, c = 0, tonumber(ARGV[3]), tonumber(ARGV[4])
if ARGV[2] == '1' then read = 1 end
for i, key in ipairs(KEYS) do
  local t = redis.call('HMGET', key, 'views', 'reads', 'seconds', 'scroll')
  local views = tonumber(t[1]) or 0
  if views < 1 then
    if i == 1 then return {0} end
  else
    if (tonumber(t[2]) or 0) >= views then read = 0 end
    s = math.max(0, math.min(s, tonumber(ARGV[5]) - (tonumber(t[3]) or 0)))
    c = math.max(0, math.min(c, 100 * views - (tonumber(t[4]) or 0)))
  end
end
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then
    redis.call('HINCRBY', key, 'reads', read)
    redis.call('HINCRBY', key, 'seconds', s)
    redis.call('HINCRBY', key, 'scroll', c)
  end
end
return {1, read, s, c}
`

/** Seconds a day's salt may still live: until SALT_MAX_AGE_HOURS after its day starts (≥ 1). */
export function saltSecondsLeft(day: string, now = Date.now()): number {
  return Math.max(1, Math.floor((dayStart(day) + SALT_TTL_SECONDS * 1000 - now) / 1000))
}

export function createSharedState(redis: Connection | undefined, now: () => number = Date.now) {
  /** Salts from Redis, and this process's own for the days Redis could not give one. */
  const sharedSalts = new Map<string, Buffer>()
  const localSalts = new Map<string, Buffer>()
  const seen = new ExpiringKeys({ sweepAt: MEMORY_SEEN_MAX, max: MEMORY_SEEN_MAX })
  const memoryShares = createMemoryShares(MEMORY_SEEN_MAX)
  // A view marked in memory and its report checked in Redis (or back) finds no view: not counted.
  const memory = createMemoryLedger()

  /** `call` on Redis when it answers; else undefined (the connection logs its failures). */
  async function onRedis<T>(call: Parameters<typeof run<T>>[2]): Promise<T | undefined> {
    if (!redis || !isUsable(redis)) return undefined
    try {
      return await run(redis, ANALYTICS_AREA, call)
    } catch {
      return undefined
    }
  }

  const tallyKeys = (day: string, visitor: string, page: string, address?: string) => [
    `${keyPrefix()}analytics:reading:${day}:${visitor}:${page}`,
    ...(address ? [`${keyPrefix()}analytics:reading:${day}:address:${address}:${page}`] : []),
  ]
  const script = (keys: string[], args: string[]) =>
    onRedis(
      async (client) => (await client.eval(READING_SCRIPT, { keys, arguments: args })) as number[],
    )

  const reading: ReadingLedger = {
    async viewed(day, visitor, page, address) {
      const keys = tallyKeys(day, visitor, page, address)
      if (!(await script(keys, ['view', String(dayEnd(day))])))
        await memory.viewed(day, visitor, page, address)
    },
    async read(day, visitor, page, ask, address) {
      const answer = await script(tallyKeys(day, visitor, page, address), [
        'read',
        ask.first ? '1' : '0',
        String(Math.max(0, Math.round(ask.seconds) || 0)),
        String(Math.max(0, Math.round(ask.scroll) || 0)),
        String(READ_SECONDS_PER_DAY),
      ])
      if (!answer) return memory.read(day, visitor, page, ask, address)
      const [viewed, read, seconds, scroll] = answer
      return viewed
        ? { read: read === 1, seconds: Number(seconds), scroll: Number(scroll) }
        : undefined
    },
  }

  return {
    async saltFor(day: string): Promise<Buffer> {
      // Only the day asked and the one before, and none past its promise, in this process too.
      const yesterday = dayAfter(day, -1)
      for (const map of [sharedSalts, localSalts])
        for (const old of map.keys())
          if (old < yesterday || now() >= dayStart(old) + SALT_TTL_SECONDS * 1000) map.delete(old)
      const cached = sharedSalts.get(day)
      if (cached) return cached
      const key = `${keyPrefix()}analytics:salt:${day}`
      const value = await onRedis(async (client) => {
        // The first instance of the day makes it; every other reads that one.
        await client.set(key, randomBytes(32).toString('hex'), {
          NX: true,
          EX: saltSecondsLeft(day, now()),
        })
        return client.get(key)
      })
      if (value && /^[0-9a-f]{64}$/.test(value)) {
        const salt = Buffer.from(value, 'hex')
        sharedSalts.set(day, salt)
        return salt
      }
      let salt = localSalts.get(day)
      if (!salt) localSalts.set(day, (salt = randomBytes(32)))
      return salt
    },

    reading,

    /** Whether `visitor` holds its address's share of an experiment: the first one takes it. */
    holdsShare: (async (day, address, experiment, visitor) => {
      const id = `${day}:${address}:${experiment}`
      const key = `${keyPrefix()}analytics:share:${id}`
      const holder = await onRedis(async (client) => {
        const set = await client.set(key, visitor, { NX: true, PXAT: dayEnd(day) })
        return set === 'OK' ? visitor : client.get(key)
      })
      if (holder) return holder === visitor
      return memoryShares.hold(id, day, visitor)
    }) satisfies HoldsShare,

    async firstSeen(key: string, ttlMs: number): Promise<boolean> {
      const answer = await redisSetOnce(
        redis,
        ANALYTICS_AREA,
        `${keyPrefix()}analytics:seen:${key}`,
        ttlMs,
      )
      return answer ?? seen.claim(key, ttlMs)
    },
  }
}

import { randomBytes } from 'node:crypto'

import type { Connection } from '@/lib/redis/connection.mjs'
import { isUsable, keyPrefix, run } from '@/lib/redis/connection.mjs'

import { REPORT_TIME_ZONE } from './report-schema'
import { SALT_MAX_AGE_HOURS } from './retention'

// The two things instances must share to count one visitor once: the day's salt and the
// "seen in the last 10 s" marks. In Redis when it is configured and answering; in this process
// otherwise (each instance then has its own salt, so a visitor seen by two instances during a
// Redis outage counts twice that day: views are never lost). Nothing here ever waits on Redis
// when it is not connected (lib/redis/connection.mjs).

export const ANALYTICS_AREA = 'analytics'
/**
 * The salt lives at most this long after its day starts (the privacy policy's promise,
 * lib/analytics/retention.ts), not after it was made.
 */
export const SALT_TTL_SECONDS = SALT_MAX_AGE_HOURS * 3600
const MEMORY_SEEN_MAX = 200_000

/**
 * When a Sao Paulo day (YYYY-MM-DD) starts, in ms since the epoch: its midnight, at the zone's
 * offset on that day.
 */
export function dayStart(day: string): number {
  const noon = Date.parse(`${day}T12:00:00Z`)
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: REPORT_TIME_ZONE,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(noon))
  const hour = Number(parts.find((part) => part.type === 'hour')!.value)
  const minute = Number(parts.find((part) => part.type === 'minute')!.value)
  // Local noon is UTC noon plus the offset; midnight is 12 h before local noon.
  const offsetMs = (hour * 60 + minute - 12 * 60) * 60_000
  return noon - offsetMs - 12 * 3_600_000
}

/** Seconds a day's salt may still live: until SALT_MAX_AGE_HOURS after its day starts (≥ 1). */
export function saltSecondsLeft(day: string, now = Date.now()): number {
  return Math.max(1, Math.floor((dayStart(day) + SALT_TTL_SECONDS * 1000 - now) / 1000))
}

export function createSharedState(redis: Connection | undefined, now: () => number = Date.now) {
  /** Salts from Redis, and this process's own for the days Redis could not give one. */
  const sharedSalts = new Map<string, Buffer>()
  const localSalts = new Map<string, { salt: Buffer; madeAt: number }>()
  const seen = new Map<string, number>()

  function dropOld(map: Map<string, unknown>, today: string) {
    // Today and yesterday only: no salt outlives 48 h in this process either.
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10)
    for (const day of map.keys()) if (day < yesterday) map.delete(day)
  }

  /** Whether a day's salt has outlived its promise: then it is forgotten, not used. */
  function expired(day: string): boolean {
    return now() >= dayStart(day) + SALT_TTL_SECONDS * 1000
  }

  function localSalt(day: string): Buffer {
    let entry = localSalts.get(day)
    if (!entry) {
      entry = { salt: randomBytes(32), madeAt: now() }
      localSalts.set(day, entry)
    }
    return entry.salt
  }

  return {
    async saltFor(day: string): Promise<Buffer> {
      dropOld(sharedSalts, day)
      dropOld(localSalts, day)
      for (const map of [sharedSalts, localSalts] as Map<string, unknown>[])
        for (const old of map.keys()) if (expired(old)) map.delete(old)
      const cached = sharedSalts.get(day)
      if (cached) return cached
      if (redis && isUsable(redis)) {
        try {
          const key = `${keyPrefix()}analytics:salt:${day}`
          const value = await run(redis, ANALYTICS_AREA, async (client) => {
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
        } catch {
          // Logged by the connection; this process's own salt below.
        }
      }
      return localSalt(day)
    },

    async firstSeen(key: string, ttlMs: number): Promise<boolean> {
      if (redis && isUsable(redis)) {
        try {
          const answer = await run(redis, ANALYTICS_AREA, (client) =>
            client.set(`${keyPrefix()}analytics:seen:${key}`, '1', { NX: true, PX: ttlMs }),
          )
          return answer === 'OK'
        } catch {
          // Counted in memory below.
        }
      }
      const now = Date.now()
      const until = seen.get(key)
      if (until !== undefined && until > now) return false
      if (seen.size >= MEMORY_SEEN_MAX) {
        for (const [entry, expires] of seen) if (expires <= now) seen.delete(entry)
        if (seen.size >= MEMORY_SEEN_MAX) seen.clear()
      }
      seen.set(key, now + ttlMs)
      return true
    },
  }
}

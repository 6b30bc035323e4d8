import type { Connection } from './connection.mjs'
import { isUsable, run } from './connection.mjs'

/**
 * "Has this key been seen in the last ttl?" across instances: Redis SET NX PX when Redis is
 * usable, else this process's memory (ExpiringKeys). Used by the visit dedupe
 * (lib/analytics/shared-state.ts) and the webhook replay guard (lib/webhook/replay.ts).
 */

/**
 * SET key 1 NX PX ttlMs: true when the key was free (and is now held), false when it was held,
 * undefined when Redis is absent, unusable or failed (the caller falls back to its memory).
 */
export async function redisSetOnce(
  conn: Connection | undefined,
  area: string,
  key: string,
  ttlMs: number,
): Promise<boolean | undefined> {
  if (!conn || !isUsable(conn)) return undefined
  try {
    const answer = await run(conn, area, (client) => client.set(key, '1', { NX: true, PX: ttlMs }))
    return answer === 'OK'
  } catch {
    // Logged by the connection.
    return undefined
  }
}

/**
 * Keys held until they expire, in this process: the stand-in for Redis SET NX PX. Expired keys
 * are swept once the map holds `sweepAt` keys (0: on every claim); past `max` after a sweep, the
 * map is cleared rather than grown.
 */
export class ExpiringKeys {
  private readonly until = new Map<string, number>()

  constructor(private readonly options: { sweepAt: number; max?: number }) {}

  /** True, and the key is held for ttlMs, when it is not held now. */
  claim(key: string, ttlMs: number, now = Date.now()): boolean {
    if ((this.until.get(key) ?? 0) > now) return false
    if (this.until.size >= this.options.sweepAt) {
      for (const [entry, expires] of this.until) if (expires <= now) this.until.delete(entry)
      if (this.options.max !== undefined && this.until.size >= this.options.max) this.until.clear()
    }
    this.until.set(key, now + ttlMs)
    return true
  }

  delete(key: string): void {
    this.until.delete(key)
  }
}

import 'server-only'

import { createHash } from 'node:crypto'

import { getRedis, keyPrefix, run } from '@/lib/redis/connection.mjs'
import { ExpiringKeys, redisSetOnce } from '@/lib/redis/set-once'

/**
 * Remembers the webhook deliveries handled in the last few minutes (by their signature's t and
 * v1), so that a captured request replayed inside its signature's 5-minute window answers 200
 * without revalidating again. In Redis when there is one (every instance sees the same list),
 * in this process's memory otherwise or while Redis is unavailable.
 *
 * A delivery is claimed before its work and released if the work failed, so that Sanity's own
 * retry of a failed delivery is not mistaken for a replay.
 */

const AREA = 'webhook-replay'
// Swept on every claim and never cleared: a cleared key would let a replay through.
const memory = new ExpiringKeys({ sweepAt: 0 })

function keyOf(timestamp: number, hashedPayload: string) {
  return createHash('sha256').update(`${timestamp}.${hashedPayload}`).digest('hex')
}

export type Claim = { fresh: boolean; release: () => Promise<void> }

/**
 * `fresh` false: this delivery was handled already. Either the very request again (the same t
 * and v1: a captured request replayed, or a redelivery nobody signed again), or, by Sanity's
 * `idempotency-key` (the same on every redelivery of one delivery), a redelivery Sanity signed
 * anew. The key is claimed only for a request whose signature is fresh, so a replayed request
 * with another key cannot take a future delivery's key.
 */
export async function claimDelivery(
  timestamp: number,
  hashedPayload: string,
  ttlMs: number,
  idempotencyKey?: string | null,
): Promise<Claim> {
  const bySignature = await claimKey(keyOf(timestamp, hashedPayload), ttlMs)
  if (!bySignature.fresh || !idempotencyKey) return bySignature
  const byKey = await claimKey(
    createHash('sha256').update(`idempotency-key:${idempotencyKey}`).digest('hex'),
    ttlMs,
  )
  return {
    fresh: byKey.fresh,
    release: async () => {
      await bySignature.release()
      if (byKey.fresh) await byKey.release()
    },
  }
}

async function claimKey(key: string, ttlMs: number): Promise<Claim> {
  const conn = getRedis()
  const redisKey = `${keyPrefix()}webhook:${key}`
  const set = await redisSetOnce(conn, AREA, redisKey, ttlMs)
  // Also in memory: a replay while Redis is away is still caught on this instance.
  const inMemory = memory.claim(key, ttlMs)
  return {
    // Redis absent or unavailable: this instance's memory alone.
    fresh: set ?? inMemory,
    release: async () => {
      memory.delete(key)
      if (conn && set !== undefined)
        await run(conn, AREA, (client) => client.del(redisKey)).catch(() => {})
    },
  }
}

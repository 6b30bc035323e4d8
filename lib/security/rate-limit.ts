import 'server-only'

import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'

import { serverEnv } from '@/lib/env'
import { RATE_LIMIT_AREA, getRedis, isUsable, keyPrefix, run } from '@/lib/redis/connection.mjs'

const options = {
  points: serverEnv.demoRateLimitPerMinute,
  duration: 60,
}

/**
 * One process: counts in memory. With REDIS_URL (several instances behind a balancer), the counts
 * live in Redis so that a visitor has the same allowance whichever instance answers. Whenever
 * Redis cannot count right now (not connected yet, unreachable, refusing our credentials or the
 * command, or slower than the connection's time limit), this process counts in memory instead:
 * a little looser (per instance), never refusing a visitor because of Redis and never making one
 * wait more than that time limit. The connection logs each of those states once
 * (lib/redis/connection.mjs). The limit only decides whether a request is stored; it never
 * retries or repeats one, so a Redis fault cannot lose or duplicate a lead.
 * https://github.com/animir/node-rate-limiter-flexible/wiki/Insurance-Strategy
 */
const inMemory = new RateLimiterMemory({ ...options, keyPrefix: 'demo-request' })
// REDIS_URL as lib/env.ts checked it; the connection itself is shared with the cache handler.
const redis = serverEnv.redisUrl ? getRedis() : undefined
const inRedis = redis
  ? new RateLimiterRedis({
      ...options,
      keyPrefix: `${keyPrefix()}demo-request`,
      storeClient: redis.client,
      useRedisPackage: true,
      // Fail at once rather than wait for a connection; we count in memory then.
      rejectIfRedisNotReady: true,
    })
  : undefined

/** Spends one demo request for this address; false once the per-minute allowance is used up. */
export async function takeDemoRequestToken(ip: string): Promise<boolean> {
  try {
    if (redis && inRedis && isUsable(redis)) {
      try {
        await run(redis, RATE_LIMIT_AREA, () => inRedis.consume(ip))
        return true
      } catch (error) {
        if (error instanceof RateLimiterRes) return false
        // Redis could not count it: logged by the connection; counted in memory below.
      }
    }
    await inMemory.consume(ip)
    return true
  } catch (error) {
    if (error instanceof RateLimiterRes) return false
    throw error
  }
}

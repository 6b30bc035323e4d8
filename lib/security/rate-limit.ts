import 'server-only'

import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible'
import { createClient } from 'redis'

import { serverEnv } from '@/lib/env'

const options = {
  keyPrefix: 'demo-request',
  points: serverEnv.demoRateLimitPerMinute,
  duration: 60,
}

/**
 * One process: counts in memory. With REDIS_URL (several instances behind a balancer), the counts
 * live in Redis so that a visitor has the same allowance whichever instance answers. Should Redis
 * stop answering, the in-memory "insurance" limiter counts instead (per instance, so a little
 * looser), rather than refuse every visitor.
 * https://github.com/animir/node-rate-limiter-flexible/wiki/Insurance-Strategy
 */
function createLimiter(): { limiter: RateLimiterAbstract; connected: Promise<unknown> } {
  if (!serverEnv.redisUrl) {
    return { limiter: new RateLimiterMemory(options), connected: Promise.resolve() }
  }

  const client = createClient({
    url: serverEnv.redisUrl,
    // Fail a command at once while disconnected (the insurance limiter answers) instead of
    // queueing it until Redis is back, which would keep the visitor waiting.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(retries * 200, 5000) },
  })
  let reported = false
  client.on('error', (error: unknown) => {
    if (reported) return
    reported = true
    console.warn(
      '[rate-limit] Redis is unreachable; demo requests are counted in this process until it is back:',
      error instanceof Error ? error.message : error,
    )
  })
  client.on('ready', () => {
    if (reported) console.info('[rate-limit] Redis is back; demo requests are counted in Redis.')
    reported = false
  })
  const connected = client.connect().catch(() => {
    // Reported by the 'error' listener; the client keeps reconnecting.
  })

  const limiter = new RateLimiterRedis({
    ...options,
    storeClient: client,
    useRedisPackage: true,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  })
  return { limiter, connected }
}

const { limiter: demoRequests, connected } = createLimiter()
// This module loads with the first demo request, which would otherwise find the connection still
// opening and be counted by the insurance limiter alone. Waits at most this long, once.
const FIRST_CONNECT_WAIT_MS = 2000
let firstConnect: Promise<unknown> | undefined = Promise.race([
  connected,
  new Promise((resolve) => setTimeout(resolve, FIRST_CONNECT_WAIT_MS)),
])

/** Spends one demo request for this address; false once the per-minute allowance is used up. */
export async function takeDemoRequestToken(ip: string): Promise<boolean> {
  if (firstConnect) {
    await firstConnect
    firstConnect = undefined
  }
  try {
    await demoRequests.consume(ip)
    return true
  } catch (error) {
    if (error instanceof RateLimiterRes) return false
    throw error
  }
}

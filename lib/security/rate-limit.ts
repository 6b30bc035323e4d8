import 'server-only'

import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'

import { serverEnv } from '@/lib/env'

// In-process memory: right for one `next start` process. Several instances behind a balancer
// would each count separately; move to rate-limiter-flexible's Postgres or Redis store then.
const demoRequests = new RateLimiterMemory({
  keyPrefix: 'demo-request',
  points: serverEnv.demoRateLimitPerMinute,
  duration: 60,
})

/** Spends one demo request for this address; false once the per-minute allowance is used up. */
export async function takeDemoRequestToken(ip: string): Promise<boolean> {
  try {
    await demoRequests.consume(ip)
    return true
  } catch (error) {
    if (error instanceof RateLimiterRes) return false
    throw error
  }
}

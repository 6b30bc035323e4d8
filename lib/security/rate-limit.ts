import 'server-only'

import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'

import { serverEnv } from '@/lib/env'
import { outsideRequest } from '@/lib/outside-request'
import { RATE_LIMIT_AREA, getRedis, isUsable, keyPrefix, run } from '@/lib/redis/connection.mjs'

import { rateLimitKeyFor } from './client-ip'

/**
 * Each limit counts in memory in one process. With REDIS_URL (several instances behind a
 * balancer), the per-address and per-contact counts live in Redis so that a visitor has the same
 * allowance whichever instance answers. Whenever Redis cannot count right now (not connected yet,
 * unreachable, refusing our credentials or the command, or slower than the connection's time
 * limit), this process counts in memory instead: a little looser (per instance), never refusing a
 * visitor because of Redis and never making one wait more than that time limit. The connection
 * logs each of those states once (lib/redis/connection.mjs). The limit only decides whether a
 * request is stored; it never retries or repeats one, so a Redis fault cannot lose or duplicate a
 * lead. https://github.com/animir/node-rate-limiter-flexible/wiki/Insurance-Strategy
 */
const redis = serverEnv.redisUrl ? getRedis() : undefined

type Limiter = { name: string; memory: RateLimiterMemory; shared?: RateLimiterRedis }

function limiter(name: string, points: number, duration: number, shared: boolean): Limiter {
  const options = { points, duration }
  return {
    name,
    memory: new RateLimiterMemory({ ...options, keyPrefix: name }),
    shared:
      shared && redis
        ? new RateLimiterRedis({
            ...options,
            keyPrefix: `${keyPrefix()}${name}`,
            storeClient: redis.client,
            useRedisPackage: true,
            // Fail at once rather than wait for a connection; we count in memory then.
            rejectIfRedisNotReady: true,
          })
        : undefined,
  }
}

/** Per visitor address (an IPv6 visitor's /64), per minute. */
const perAddress = limiter('demo-request', serverEnv.demoRateLimitPerMinute, 60, true)
/**
 * Per phone number and per e-mail address, per hour: a script that changes address at every
 * request (a botnet, an IPv6 block) still cannot have the WhatsApp agent write to one number, or
 * mail one person, more than this.
 */
const perContact = limiter(
  'demo-request-contact',
  serverEnv.demoRateLimitPerContactPerHour,
  3600,
  true,
)
/**
 * Everyone together, per instance, per minute: a ceiling on what a flood from many addresses can
 * make this instance write, whatever the other limits. In memory only (it protects this process
 * and the database from it), so N instances accept at most N times this.
 */
const global = limiter('demo-request-global', serverEnv.demoRateLimitGlobalPerMinute, 60, false)

/** Spends one point of `key`; false once its allowance is used up. */
async function take(limit: Limiter, key: string): Promise<boolean> {
  try {
    if (redis && limit.shared && isUsable(redis)) {
      const shared = limit.shared
      try {
        await run(redis, RATE_LIMIT_AREA, () => shared.consume(key))
        return true
      } catch (error) {
        if (error instanceof RateLimiterRes) return false
        // Redis could not count it: logged by the connection; counted in memory below.
      }
    }
    // Its expiry timer must not hold the request (lib/outside-request.ts).
    await outsideRequest(() => limit.memory.consume(key))
    return true
  } catch (error) {
    if (error instanceof RateLimiterRes) return false
    throw error
  }
}

export type RateLimitVerdict = 'ok' | 'address' | 'contact' | 'global'

/**
 * Every limit a demo request passes before it is stored, in order: the visitor's address, then
 * its phone (digits as stored) and e-mail (lower-cased), then this instance's ceiling. Only a
 * request that gets that far spends points further down.
 */
export async function checkDemoRequestLimits(request: {
  ip: string
  phone: string | null
  email: string
}): Promise<RateLimitVerdict> {
  if (!(await take(perAddress, rateLimitKeyFor(request.ip)))) return 'address'
  const contacts = [
    ...(request.phone ? [`phone:${request.phone}`] : []),
    `email:${request.email.trim().toLowerCase()}`,
  ]
  for (const contact of contacts) {
    if (!(await take(perContact, contact))) return 'contact'
  }
  if (!(await take(global, 'all'))) return 'global'
  return 'ok'
}

/** A page's limits: per visitor address (shared through Redis when there is one) and per instance. */
function pageLimits(name: string, perAddress: number, global: number) {
  const address = limiter(name, perAddress, 60, true)
  const instance = limiter(`${name}-global`, global, 60, false)
  /** Whether this visitor may have the page now: 'ok', or which limit it has reached. */
  return async (ip: string): Promise<'ok' | 'address' | 'global'> => {
    if (!(await take(address, rateLimitKeyFor(ip)))) return 'address'
    if (!(await take(instance, 'all'))) return 'global'
    return 'ok'
  }
}

/**
 * Review links (/revisao/<token>): each well-formed token costs one uncached, token-authenticated
 * Content Lake query, so guessing is limited per visitor address (shared through Redis like the
 * form's) and per instance (in memory). proxy.ts asks before the page runs; a malformed token
 * never gets this far (docs/security.md, "Unknown addresses").
 */
export const checkReviewLinkLimits = pageLimits(
  'review-link',
  serverEnv.reviewRateLimitPerMinute,
  serverEnv.reviewRateLimitGlobalPerMinute,
)

/**
 * The savings calculator's answer (/calculadora) renders on every request (its query string is
 * the visitor's), so like review links it is limited per visitor address (shared through Redis)
 * and per instance; proxy.ts asks before the page runs.
 */
export const checkCalculatorLimits = pageLimits(
  'calculator',
  serverEnv.calculatorRateLimitPerMinute,
  serverEnv.calculatorRateLimitGlobalPerMinute,
)

/**
 * Visit beacons (POST /api/analytics/view), in this process's memory only: the beacon must
 * answer at once, so it never waits on Redis, and N instances accept at most N times these
 * (docs/analytics.md, "Hostile input"). Per visitor address, then everyone together.
 */
const beaconPerAddress = new RateLimiterMemory({
  points: serverEnv.analyticsRateLimitPerMinute,
  duration: 60,
  keyPrefix: 'analytics-beacon',
})
const beaconGlobal = new RateLimiterMemory({
  points: serverEnv.analyticsRateLimitGlobalPerMinute,
  duration: 60,
  keyPrefix: 'analytics-beacon-global',
})

/** Whether this beacon may be counted: 'ok', or which limit it has reached. */
export async function checkBeaconLimits(ip: string): Promise<'ok' | 'address' | 'global'> {
  try {
    // Its expiry timer must not hold the request (lib/outside-request.ts).
    await outsideRequest(() => beaconPerAddress.consume(rateLimitKeyFor(ip)))
  } catch {
    return 'address'
  }
  try {
    await outsideRequest(() => beaconGlobal.consume('all'))
  } catch {
    return 'global'
  }
  return 'ok'
}

/** A material's download link, mailed to the same address at most this often a day. */
export const MATERIAL_MAIL_PER_RECIPIENT_PER_DAY = 3
/** Link e-mails one visitor address (an IPv6 visitor's /64) may have sent, per hour. */
export const MATERIAL_MAIL_PER_CLIENT_PER_HOUR = 10

const materialMailPerClient = limiter(
  'material-mail-client',
  MATERIAL_MAIL_PER_CLIENT_PER_HOUR,
  3600,
  true,
)
const materialMailPerRecipient = limiter(
  'material-mail-recipient',
  MATERIAL_MAIL_PER_RECIPIENT_PER_DAY,
  24 * 3600,
  true,
)

/**
 * Whether the site may mail a material's download link now (lib/materials/link-email.ts): the
 * form takes any address, so without this it would mail someone else's inbox on demand. Per
 * visitor address first, then per recipient (lower-cased), each shared through Redis when there
 * is one: however many addresses a script uses, one inbox gets at most
 * MATERIAL_MAIL_PER_RECIPIENT_PER_DAY a day. The download itself is never limited by this.
 */
export async function checkMaterialMailLimits(request: {
  ip: string
  email: string
}): Promise<'ok' | 'address' | 'recipient'> {
  if (!(await take(materialMailPerClient, rateLimitKeyFor(request.ip)))) return 'address'
  if (!(await take(materialMailPerRecipient, `email:${request.email.trim().toLowerCase()}`)))
    return 'recipient'
  return 'ok'
}

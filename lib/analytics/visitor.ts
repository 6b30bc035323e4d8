import 'server-only'

import { serverEnv } from '@/lib/env'
import { getRedis } from '@/lib/redis/connection.mjs'

import { saoPauloDay, visitorHash } from './collect'
import { createSharedState } from './shared-state'

// Today's visitor and what instances share, apart from the counter (index.ts): proxy.ts runs on
// every page request and needs only these, not the visit store, the content reader or the lead
// stores the counter reaches (tests/unit/import-graph.test.ts holds it).

// On globalThis: Next bundles the proxy, instrumentation.ts and each route apart, and they must
// share one state per process.
const globalForShared = globalThis as typeof globalThis & {
  __vigiaAnalyticsShared?: { config: string; shared: ReturnType<typeof createSharedState> }
}

/**
 * What instances share (salts, marks, reading tallies, experiments' shares), without opening the
 * visit store: the proxy and the forms need only this.
 */
export function sharedState(): ReturnType<typeof createSharedState> {
  const config = JSON.stringify([serverEnv.redisUrl])
  const existing = globalForShared.__vigiaAnalyticsShared
  if (existing?.config === config) return existing.shared
  const shared = createSharedState(serverEnv.redisUrl ? getRedis() : undefined)
  globalForShared.__vigiaAnalyticsShared = { config, shared }
  return shared
}

/**
 * The visitor of today as the counting knows them (the day's salt, address, browser and site):
 * what an experiment assigns its variant from (proxy.ts, lib/experiments/assign.ts), so the
 * variant served and the views counted belong to the same visitor, with nothing stored.
 */
export async function visitorOfToday(ip: string, userAgent: string, now = Date.now()) {
  const salt = await sharedState().saltFor(saoPauloDay(now))
  return visitorHash(salt, ip, userAgent, serverEnv.siteUrl)
}

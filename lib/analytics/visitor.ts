import 'server-only'

import { serverEnv } from '@/lib/env'
import { getRedis } from '@/lib/redis/connection.mjs'

import { saoPauloDay, visitorHash } from './collect'
import { createSharedState } from './shared-state'

// Today's visitor and what instances share, apart from the counter (index.ts): proxy.ts runs on
// every request and must not reach the visit or lead stores (tests/unit/import-graph.test.ts).
// On globalThis: Next bundles the proxy, instrumentation.ts and each route apart.
const globalForShared = globalThis as typeof globalThis & {
  __vigiaAnalyticsShared?: { config: string; shared: ReturnType<typeof createSharedState> }
}

/** What instances share (shared-state.ts), without opening the visit store. */
export function sharedState(): ReturnType<typeof createSharedState> {
  const config = JSON.stringify([serverEnv.redisUrl])
  const existing = globalForShared.__vigiaAnalyticsShared
  if (existing?.config === config) return existing.shared
  const shared = createSharedState(serverEnv.redisUrl ? getRedis() : undefined)
  globalForShared.__vigiaAnalyticsShared = { config, shared }
  return shared
}

/**
 * Today's visitor as the counting knows them: what an experiment assigns its variant from
 * (proxy.ts), so the variant served and the views counted belong to one visitor, nothing stored.
 */
export async function visitorOfToday(ip: string, userAgent: string, now = Date.now()) {
  const salt = await sharedState().saltFor(saoPauloDay(now))
  return visitorHash(salt, ip, userAgent, serverEnv.siteUrl)
}

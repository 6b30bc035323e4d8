import 'server-only'

import { accessSync, constants } from 'node:fs'
import path from 'node:path'

import { serverEnv } from '@/lib/env'
import { leadDeliveryHealth, type DeliveryHealth } from '@/lib/leads/delivery'
import { redisHealth, type PartHealth } from '@/lib/redis/connection.mjs'
import { isInternalRequest } from '@/lib/security/internal-request'
import { sameSecret } from '@/lib/security/same-secret'

/** Set by lib/cache/cache-handler.mjs, which Next constructs (with this path) for every request. */
const SERVER_DIST_DIR_KEY = Symbol.for('vigia.serverDistDir')

export type InstanceHealth = {
  status: 'ok' | 'degraded' | 'down'
  pages: PartHealth
  sharedCache: PartHealth & { mode: 'redis' | 'this instance only' }
  rateLimiter: PartHealth & { mode: 'redis' | 'this instance only' }
  leadStore: PartHealth & { mode: 'supabase' | 'embedded' }
  /** Present once a lead destination is configured: pending and failed deliveries (docs/leads.md). */
  leadDelivery?: DeliveryHealth
}

/**
 * Pages are served from this instance's cache, seeded by the build's prerendered pages: without
 * the home page's (a deploy that left out .next/server), every visit would depend on rendering.
 */
function pagesHealth(): PartHealth {
  const serverDistDir = (globalThis as Record<symbol, unknown>)[SERVER_DIST_DIR_KEY]
  if (typeof serverDistDir !== 'string') return { ok: true }
  try {
    accessSync(path.join(serverDistDir, 'app', 'index.html'), constants.R_OK)
    return { ok: true }
  } catch {
    return {
      ok: false,
      problem: `the build's prerendered home page is missing from ${serverDistDir}: deploy the whole build`,
    }
  }
}

/**
 * What /api/health answers: which parts of this instance work, from what this process already
 * knows (no Content Lake query, no database write, no Redis round trip).
 */
export function instanceHealth(): InstanceHealth {
  const pages = pagesHealth()
  const redis = serverEnv.redisUrl ? redisHealth() : undefined
  const sharedCache = redis
    ? { mode: 'redis' as const, ...redis.sharedCache }
    : { mode: 'this instance only' as const, ok: true }
  const rateLimiter = redis
    ? { mode: 'redis' as const, ...redis.rateLimiter }
    : { mode: 'this instance only' as const, ok: true }
  const leadStore = {
    mode: serverEnv.supabase ? ('supabase' as const) : ('embedded' as const),
    ok: true,
  }
  const status = !pages.ok ? 'down' : sharedCache.ok && rateLimiter.ok ? 'ok' : 'degraded'
  const delivery = leadDeliveryHealth()
  const leadDelivery =
    // Shown where it says something: an instance that sends, a problem, or deliveries queued (an
    // instance without settings sees the others' queue, issue 49).
    delivery && (delivery.destinations.length > 0 || !delivery.ok || delivery.byDestination)
      ? { leadDelivery: delivery }
      : {}
  return { status, pages, sharedCache, rateLimiter, leadStore, ...leadDelivery }
}

/** What anyone gets: the status and whether each part is ok, nothing about how it is set up. */
export type PublicHealth = {
  status: InstanceHealth['status']
  pages: { ok: boolean }
  sharedCache: { ok: boolean }
  rateLimiter: { ok: boolean }
  leadStore: { ok: boolean }
  leadDelivery?: { ok: boolean }
}

export function publicHealth(health: InstanceHealth): PublicHealth {
  return {
    status: health.status,
    pages: { ok: health.pages.ok },
    sharedCache: { ok: health.sharedCache.ok },
    rateLimiter: { ok: health.rateLimiter.ok },
    leadStore: { ok: health.leadStore.ok },
    ...(health.leadDelivery ? { leadDelivery: { ok: health.leadDelivery.ok } } : {}),
  }
}

export const HEALTH_TOKEN_HEADER = 'x-health-token'

/**
 * Whether a request may see the details (modes, problems, paths): it carries HEALTH_DETAILS_TOKEN
 * in X-Health-Token, or this server's internal secret in X-Internal-Secret (an operator on the
 * machine, who set INTERNAL_API_SECRET). Never because of where it seems to come from: a route
 * never sees the socket, and X-Forwarded-For is what the client wrote (docs/deploying.md).
 */
export function mayShowDetails(headers: Headers, token = serverEnv.healthDetailsToken): boolean {
  const sent = headers.get(HEALTH_TOKEN_HEADER)
  return (!!token && !!sent && sameSecret(sent, token)) || isInternalRequest(headers)
}

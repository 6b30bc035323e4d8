// When a lead's delivery is tried again (issue 46, docs/leads.md "Nothing lost, at most twice").
// Pure functions, unit-tested: tests/unit/lead-delivery-retry.test.ts.

import { retryAfterMs } from '@/lib/retry-after'

/** The first wait after a failure, before jitter. */
export const RETRY_BASE_MS = 10_000
/** The longest wait between two attempts. */
export const RETRY_CAP_MS = 5 * 60_000
/** A delivery still failing this long after its lead was stored is given up, and logged once. */
export const RETRY_FOR_MS = 24 * 60 * 60_000
/** A Retry-After longer than this is read as this (a receiver cannot park a lead for days). */
export const RETRY_AFTER_MAX_MS = 60 * 60_000

/** What one attempt came to. `reason` is ours (status, error code), never the receiver's body. */
export type AttemptResult =
  | { kind: 'delivered' }
  | { kind: 'retry'; reason: string; retryAfterMs?: number }
  | { kind: 'reject'; reason: string }

/**
 * The wait before attempt `failures + 1`: 10 s doubled per failure up to 5 minutes, each drawn
 * from 80-120 % of it, so that instances and leads failing together do not come back together.
 */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(failures - 1, 20))
  const base = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** exponent)
  return Math.min(RETRY_CAP_MS, Math.round(base * (0.8 + 0.4 * random())))
}

/** Retry-After (lib/retry-after.ts) in ms from `now`, at most RETRY_AFTER_MAX_MS. */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  const ms = retryAfterMs(value, now)
  return ms === undefined ? undefined : Math.min(RETRY_AFTER_MAX_MS, ms)
}

/**
 * An HTTP answer as an attempt's result: 2xx delivered; 429 and 5xx tried again (429 after its
 * Retry-After); any other status (a 4xx: bad key, refused payload; a 3xx: a moved endpoint)
 * stops, as trying again would get the same answer.
 */
export function classifyHttp(
  status: number,
  retryAfter?: string | null,
  now = Date.now(),
): AttemptResult {
  if (status >= 200 && status < 300) return { kind: 'delivered' }
  if (status === 429 || status >= 500) {
    const wait = parseRetryAfter(retryAfter, now)
    return {
      kind: 'retry',
      reason: `HTTP ${status}`,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    }
  }
  return { kind: 'reject', reason: `HTTP ${status}` }
}

/** A request that got no answer (refused, reset, DNS, our time-out): always tried again. */
export function classifyError(error: unknown): AttemptResult {
  const name = (error as { name?: unknown } | null)?.name
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'retry', reason: 'timeout' }
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause
  const code = (error as { code?: unknown } | null)?.code ?? cause?.code
  return { kind: 'retry', reason: typeof code === 'string' && code ? code : 'network error' }
}

/** What to record after an attempt. */
export type NextStep =
  | { kind: 'delivered' }
  | { kind: 'retry'; at: number; reason: string }
  | { kind: 'failed'; reason: string; gaveUp: boolean }

/**
 * The next step for a delivery whose lead was stored at `createdAt` and which has now failed
 * `attempts` times in all: tried again while inside RETRY_FOR_MS, then given up (`gaveUp`).
 */
export function nextStep(
  result: AttemptResult,
  attempts: number,
  createdAt: number,
  now = Date.now(),
  random: () => number = Math.random,
): NextStep {
  if (result.kind === 'delivered') return { kind: 'delivered' }
  if (result.kind === 'reject') return { kind: 'failed', reason: result.reason, gaveUp: false }
  if (now - createdAt >= RETRY_FOR_MS)
    return { kind: 'failed', reason: result.reason, gaveUp: true }
  const wait = result.retryAfterMs ?? backoffMs(attempts, random)
  return { kind: 'retry', at: now + Math.max(1000, wait), reason: result.reason }
}

import 'server-only'

import { AsyncLocalStorage } from 'node:async_hooks'

// A timer keeps the async context it was started in alive until it fires: in Node 24 that is
// every AsyncLocalStorage store of the request, Next's included (about 26 KB a request). The
// in-memory rate limits start one timer per new key for its window (rate-limiter-flexible's
// MemoryStorage), so every beacon from a new address kept its request in memory for 60 s: 11,000
// beacons held 290 MB after a full GC, and the collections it cost stalled the server.
// https://nodejs.org/api/async_context.html#static-method-asynclocalstoragesnapshot

const ROOT = Symbol.for('vigia.rootContext')
const holder = globalThis as typeof globalThis & {
  [ROOT]?: <R>(fn: (...args: unknown[]) => R) => R
}

/** Called once when the server starts (instrumentation.ts), outside any request. */
export function captureRootContext(): void {
  holder[ROOT] ??= AsyncLocalStorage.snapshot()
}

/**
 * Runs fn in the server's start-up context, not the request's: what it starts (timers, promises)
 * does not keep the request alive. Only for work that reads nothing of the request's context.
 */
export function outsideRequest<T>(fn: () => T): T {
  const run = holder[ROOT]
  return run ? run(fn) : fn()
}

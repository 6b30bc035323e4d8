import { randomBytes, timingSafeEqual } from 'node:crypto'
import type http from 'node:http'
import net from 'node:net'

import { addEarlyRequestHook } from '@/lib/early-requests'

// Whether a request reached this server straight from this machine, with no proxy in between.
// A route handler never sees the socket, and X-Forwarded-For cannot tell: `next start` fills it
// with the socket's address only when the request brought none, so a forged "127.0.0.1" looks
// the same, and behind nginx every connection comes from loopback. So the server itself marks
// each request as it arrives, from its socket: loopback, and none of the headers a proxy adds
// (every front we own adds X-Forwarded-For). The mark is a random value made once per process, so
// a visitor can neither forge it nor keep one of their own.

export const DIRECT_LOOPBACK_HEADER = 'x-internal-direct-loopback'

const MARK_KEY = Symbol.for('vigia.directLoopbackMark')

/** This process's mark (one value for every bundle that loads this module: kept on globalThis). */
function mark(): string {
  const store = globalThis as Record<symbol, string | undefined>
  return (store[MARK_KEY] ??= randomBytes(32).toString('base64url'))
}

/** Headers a proxy adds; a request with any of them did not come straight from this machine. */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
]

export function isLoopbackAddress(address: string | undefined): boolean {
  const plain = (address ?? '').replace(/^::ffff:/i, '')
  if (net.isIPv4(plain)) return plain.startsWith('127.')
  return plain === '::1'
}

/** Marks one arriving request (or removes a mark the client sent). */
export function stampDirectLoopback(request: http.IncomingMessage): void {
  delete request.headers[DIRECT_LOOPBACK_HEADER]
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)
  if (!forwarded && isLoopbackAddress(request.socket?.remoteAddress)) {
    request.headers[DIRECT_LOOPBACK_HEADER] = mark()
  }
}

/**
 * From instrumentation.ts, once per process: every HTTP server in it marks its requests before
 * Next sees them. A request that arrived before this ran (the first instants of start-up) has no
 * mark, so it gets what any visitor gets: the safe side.
 */
export function installDirectLoopbackStamp(): void {
  addEarlyRequestHook('direct-loopback', (request) => {
    stampDirectLoopback(request)
    return false
  })
}

/** Whether the server marked this request as straight from this machine. */
export function isDirectLoopback(headers: Headers): boolean {
  const sent = Buffer.from(headers.get(DIRECT_LOOPBACK_HEADER) ?? '')
  const expected = Buffer.from(mark())
  return sent.length === expected.length && timingSafeEqual(sent, expected)
}

import 'server-only'

import { serverEnv } from '@/lib/env'

/**
 * The visitor's address, read from X-Forwarded-For as our own proxies wrote it.
 *
 * Each trusted proxy appends the peer it saw, so with N trusted hops the visitor is the N-th entry
 * from the right; the left-most entries come from the visitor and are never trusted. `next start`
 * fills the header with the socket's address only when it is absent
 * (node_modules/next/dist/server/base-server.js), so with 0 hops the right-most entry is the
 * socket peer unless the visitor sent one: run with 0 only when nothing but trusted traffic can
 * reach the server.
 */
export function clientIpFrom(headers: Headers, hops = serverEnv.trustedProxyHops): string {
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (chain.length === 0) return 'unknown'
  const index = chain.length - Math.max(hops, 1)
  return chain[Math.max(index, 0)] ?? 'unknown'
}

import 'server-only'

import { isIP } from 'node:net'

import { serverEnv } from '@/lib/env'

import { addressNetwork } from './address-network'

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
export function clientIpFrom(
  headers: Pick<Headers, 'get'>,
  hops = serverEnv.trustedProxyHops,
): string {
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (chain.length === 0) return 'unknown'
  const index = chain.length - Math.max(hops, 1)
  const entry = chain[Math.max(index, 0)] ?? ''
  // Only an address: anything else there ("unknown", a host name, a made-up string a visitor
  // could vary at will to get a fresh allowance) counts as one shared key, 'unknown'.
  return isIP(entry) ? entry : 'unknown'
}

/**
 * The key a visitor's address is counted under: the address, or its IPv6 /64
 * (lib/security/address-network.ts).
 */
export function rateLimitKeyFor(ip: string): string {
  return addressNetwork(ip)
}

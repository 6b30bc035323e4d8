import 'server-only'

import { isIP } from 'node:net'

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
 * The key a visitor's address is counted under. An IPv4 address is itself. An IPv6 address is
 * its /64 network: one subscriber usually gets a whole /64 (RFC 6177) and can use any of its
 * 2^64 addresses, so counting per address would give them an endless allowance. An IPv4 address
 * written as IPv6 (::ffff:203.0.113.7) counts as the IPv4 address.
 */
export function rateLimitKeyFor(ip: string): string {
  const version = isIP(ip)
  if (version === 4) return ip
  if (version !== 6) return 'unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped?.[1] && isIP(mapped[1]) === 4) return mapped[1]
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`
}

/** The eight 16-bit groups of an IPv6 address, as lower-case hex without leading zeros. */
function expandIpv6(ip: string): string[] {
  let address = ip.toLowerCase().split('%')[0] ?? ''
  // An embedded IPv4 tail (::1.2.3.4) becomes two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address)
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number]
    address =
      address.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0')
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16))
}

import { isIP } from 'node:net'

// One address as the site counts it, shared by the rate limits (client-ip.ts) and the visit counts'
// promotion of a campaign (lib/analytics/collect.ts). No server-only import: the counting's pure
// part and its tests use it.

/**
 * The key a visitor's address is counted under. An IPv4 address is itself. An IPv6 address is
 * its /64 network: one subscriber usually gets a whole /64 (RFC 6177) and can use any of its
 * 2^64 addresses, so counting per address would give them an endless allowance. An IPv4 address
 * written as IPv6 (::ffff:203.0.113.7) counts as the IPv4 address.
 */
export function addressNetwork(ip: string): string {
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

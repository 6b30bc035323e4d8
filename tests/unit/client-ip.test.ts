import { describe, expect, it } from 'vitest'

import { clientIpFrom, rateLimitKeyFor } from '@/lib/security/client-ip'

const withChain = (chain?: string) => new Headers(chain ? { 'x-forwarded-for': chain } : {})

describe('clientIpFrom', () => {
  it('takes the entry our one proxy appended, not what the visitor wrote on the left', () => {
    expect(clientIpFrom(withChain('6.6.6.6, 203.0.113.7'), 1)).toBe('203.0.113.7')
  })

  it('walks one entry further left per extra trusted hop', () => {
    expect(clientIpFrom(withChain('6.6.6.6, 203.0.113.7, 10.0.0.2'), 2)).toBe('203.0.113.7')
  })

  it('never goes past the left end of the chain', () => {
    expect(clientIpFrom(withChain('203.0.113.7'), 3)).toBe('203.0.113.7')
  })

  it('uses the socket address Next fills in when nothing is in front', () => {
    expect(clientIpFrom(withChain('127.0.0.1'), 0)).toBe('127.0.0.1')
    expect(clientIpFrom(withChain(), 0)).toBe('unknown')
  })
})

describe('clientIpFrom against made-up entries', () => {
  it('counts anything that is not an IP address as one shared "unknown"', () => {
    for (const entry of [
      'unknown',
      'evil.example',
      '1.2.3.4.5',
      '203.0.113.7:443',
      'x'.repeat(40),
    ]) {
      expect(clientIpFrom(withChain(`6.6.6.6, ${entry}`), 1), entry).toBe('unknown')
    }
    expect(clientIpFrom(withChain('2001:db8::1'), 1)).toBe('2001:db8::1')
  })
})

describe('rateLimitKeyFor', () => {
  it('counts an IPv4 address as itself', () => {
    expect(rateLimitKeyFor('203.0.113.7')).toBe('203.0.113.7')
    expect(rateLimitKeyFor('::ffff:203.0.113.7')).toBe('203.0.113.7')
  })

  it('counts every address of one IPv6 /64 together, and two /64s apart', () => {
    const a = rateLimitKeyFor('2001:db8:1:2::1')
    expect(a).toBe('2001:db8:1:2::/64')
    expect(rateLimitKeyFor('2001:0db8:0001:0002:ffff:eeee:dddd:cccc')).toBe(a)
    expect(rateLimitKeyFor('2001:DB8:1:2:0:0:0:9')).toBe(a)
    expect(rateLimitKeyFor('2001:db8:1:3::1')).not.toBe(a)
    expect(rateLimitKeyFor('::1')).toBe('0:0:0:0::/64')
    expect(rateLimitKeyFor('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  })

  it('counts a value that is not an address as "unknown"', () => {
    expect(rateLimitKeyFor('unknown')).toBe('unknown')
    expect(rateLimitKeyFor('2001:db8::g')).toBe('unknown')
  })
})

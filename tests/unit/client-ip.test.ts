import { describe, expect, it } from 'vitest'

import { clientIpFrom } from '@/lib/security/client-ip'

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

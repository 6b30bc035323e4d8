import { describe, expect, it } from 'vitest'

import { sameSecret } from '@/lib/security/same-secret'

describe('sameSecret', () => {
  it('is true only for the very same string, whatever the lengths', () => {
    expect(sameSecret('r'.repeat(32), 'r'.repeat(32))).toBe(true)
    expect(sameSecret('abc', 'abcd')).toBe(false)
    expect(sameSecret('abcd', 'abc')).toBe(false)
    expect(sameSecret('abce', 'abcd')).toBe(false)
    expect(sameSecret('', 'abcd')).toBe(false)
  })
})

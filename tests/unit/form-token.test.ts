import { describe, expect, it } from 'vitest'

import {
  isSubmissionKey,
  requestKeyDigest,
  signFormTimestamp,
  verifyFormTimestamp,
} from '@/lib/security/form-token'

describe('the signed form timestamp (no-JavaScript post)', () => {
  it('gives back the time it was signed with', () => {
    const token = signFormTimestamp(1_780_000_000_000)
    expect(verifyFormTimestamp(token)).toBe(1_780_000_000_000)
  })

  it('refuses a missing, malformed, altered or forged token', () => {
    const token = signFormTimestamp(1_780_000_000_000)
    const [time, signature] = token.split('.') as [string, string]
    for (const bad of [
      '',
      'abc',
      time,
      `${time}.`,
      `${Number(time) - 60_000}.${signature}`,
      `${time}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `${time}.${'A'.repeat(43)}`,
      '0',
      `${token} `,
    ]) {
      expect(verifyFormTimestamp(bad), bad).toBeNull()
    }
  })
})

describe('submission keys', () => {
  it('accepts what crypto.randomUUID makes, nothing else', () => {
    expect(isSubmissionKey(crypto.randomUUID())).toBe(true)
    for (const bad of ['', 'x', '00000000-0000-0000-0000-000000000000', `${crypto.randomUUID()}a`])
      expect(isSubmissionKey(bad), bad).toBe(false)
  })

  it('digests one key, or one no-JavaScript post, always to the same 64 hex digits', () => {
    const key = crypto.randomUUID()
    expect(requestKeyDigest({ key })).toMatch(/^[0-9a-f]{64}$/)
    expect(requestKeyDigest({ key })).toBe(requestKeyDigest({ key }))
    expect(requestKeyDigest({ key })).not.toBe(requestKeyDigest({ key: crypto.randomUUID() }))
    const post = { token: 't', values: { name: 'Ana', email: 'a@b.com.br' } }
    expect(requestKeyDigest(post)).toBe(
      requestKeyDigest({ token: 't', values: { email: 'a@b.com.br', name: 'Ana' } }),
    )
    expect(requestKeyDigest(post)).not.toBe(
      requestKeyDigest({ token: 't', values: { name: 'Ana', email: 'c@b.com.br' } }),
    )
  })
})

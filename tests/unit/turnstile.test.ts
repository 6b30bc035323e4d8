import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import { verifyTurnstileToken } from '@/lib/security/turnstile'

import { startSiteverifyDouble, TOKEN_LIFETIME_MS } from '../support/siteverify-double'

// Against a siteverify double as strict as Cloudflare's (tests/support/siteverify-double.ts).
let siteverify: Awaited<ReturnType<typeof startSiteverifyDouble>>

beforeAll(async () => {
  siteverify = await startSiteverifyDouble({
    secret: 'good-secret',
    hostname: 'www.vigia.test',
    action: 'demo-request',
  })
})
afterAll(() => siteverify.close())
beforeEach(() => {
  siteverify.reset()
  vi.restoreAllMocks()
})

const config = (secretKey = 'good-secret') => ({
  siteKey: 'site',
  secretKey,
  verifyUrl: siteverify.url,
})
const SITE = { hostname: 'www.vigia.test', action: 'demo-request' }

describe('verifyTurnstileToken against a siteverify double', () => {
  it('passes everything when Turnstile is not configured, without calling anyone', async () => {
    expect(await verifyTurnstileToken('', '203.0.113.7', undefined)).toBe('passed')
    expect(siteverify.received).toHaveLength(0)
  })

  it('passes a token siteverify accepts, sending the secret, the token and the address', async () => {
    const token = siteverify.solved()
    expect(await verifyTurnstileToken(token, '203.0.113.7', config(), SITE)).toBe('passed')
    expect(siteverify.received).toHaveLength(1)
    expect(Object.fromEntries(siteverify.received[0]!)).toEqual({
      secret: 'good-secret',
      response: token,
      remoteip: '203.0.113.7',
    })
  })

  it('fails a token used before (a replayed post) and one solved more than 300 s ago', async () => {
    const token = siteverify.solved()
    expect(await verifyTurnstileToken(token, '203.0.113.7', config(), SITE)).toBe('passed')
    expect(await verifyTurnstileToken(token, '203.0.113.7', config(), SITE)).toBe('failed')
    const old = siteverify.solved({ ageMs: TOKEN_LIFETIME_MS + 1000 })
    expect(await verifyTurnstileToken(old, '203.0.113.7', config(), SITE)).toBe('failed')
    const recent = siteverify.solved({ ageMs: TOKEN_LIFETIME_MS - 5000 })
    expect(await verifyTurnstileToken(recent, '203.0.113.7', config(), SITE)).toBe('passed')
    expect(siteverify.tokens()).toEqual([token, token, old, recent])
  })

  it('fails a token siteverify refuses, and a missing or oversized one without asking', async () => {
    expect(await verifyTurnstileToken('bad-token', '203.0.113.7', config())).toBe('failed')
    expect(await verifyTurnstileToken('', '203.0.113.7', config())).toBe('failed')
    expect(await verifyTurnstileToken('x'.repeat(2049), '203.0.113.7', config())).toBe('failed')
    expect(siteverify.received).toHaveLength(1)
  })

  it('says so in the log when our own secret is refused', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await verifyTurnstileToken(siteverify.solved(), 'unknown', config('wrong'))).toBe(
      'failed',
    )
    expect(String(errors.mock.calls[0]?.[0])).toMatch(/TURNSTILE_SECRET_KEY/)
    expect(siteverify.received[0]?.has('remoteip')).toBe(false)
  })

  it('is unavailable, not passed, when siteverify fails or does not answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    siteverify.behaviour = 'http-500'
    expect(await verifyTurnstileToken(siteverify.solved(), '203.0.113.7', config())).toBe(
      'unavailable',
    )
    expect(
      await verifyTurnstileToken(siteverify.solved(), '203.0.113.7', {
        ...config(),
        verifyUrl: 'http://127.0.0.1:1/siteverify',
      }),
    ).toBe('unavailable')
  })

  it('fails a genuine token solved on another host or for another action (issue 38)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (const solvedFor of [{ hostname: 'www.outro-site.test' }, { action: 'login' }]) {
      expect(
        await verifyTurnstileToken(siteverify.solved(solvedFor), '203.0.113.7', config(), SITE),
      ).toBe('failed')
    }
  })
})

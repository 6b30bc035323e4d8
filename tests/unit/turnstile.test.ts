import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import { verifyTurnstileToken } from '@/lib/security/turnstile'

// A siteverify double: Cloudflare's documented test secret semantics, on a local port.
// https://developers.cloudflare.com/turnstile/troubleshooting/testing/
let server: http.Server
let url: string
let received: URLSearchParams[] = []
let behaviour: 'answer' | 'http-500' | 'hang' = 'answer'

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const form = new URLSearchParams(body)
      received.push(form)
      if (behaviour === 'hang') return
      if (behaviour === 'http-500') return res.writeHead(500).end()
      const success = form.get('secret') === 'good-secret' && form.get('response') === 'good-token'
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          success,
          // Where and for what the widget was solved.
          hostname: 'www.vigia.test',
          action: 'demo-request',
          'error-codes': success
            ? []
            : form.get('secret') === 'good-secret'
              ? ['invalid-input-response']
              : ['invalid-input-secret'],
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})
beforeEach(() => {
  received = []
  behaviour = 'answer'
  vi.restoreAllMocks()
})

const config = (secretKey = 'good-secret') => ({ siteKey: 'site', secretKey, verifyUrl: url })
const SITE = { hostname: 'www.vigia.test', action: 'demo-request' }

describe('verifyTurnstileToken against a siteverify double', () => {
  it('passes everything when Turnstile is not configured, without calling anyone', async () => {
    expect(await verifyTurnstileToken('', '203.0.113.7', undefined)).toBe('passed')
    expect(received).toHaveLength(0)
  })

  it('passes a token siteverify accepts, sending the secret, the token and the address', async () => {
    expect(await verifyTurnstileToken('good-token', '203.0.113.7', config(), SITE)).toBe('passed')
    expect(received).toHaveLength(1)
    expect(Object.fromEntries(received[0]!)).toEqual({
      secret: 'good-secret',
      response: 'good-token',
      remoteip: '203.0.113.7',
    })
  })

  it('fails a token siteverify refuses, and a missing or oversized one without asking', async () => {
    expect(await verifyTurnstileToken('bad-token', '203.0.113.7', config())).toBe('failed')
    expect(await verifyTurnstileToken('', '203.0.113.7', config())).toBe('failed')
    expect(await verifyTurnstileToken('x'.repeat(2049), '203.0.113.7', config())).toBe('failed')
    expect(received).toHaveLength(1)
  })

  it('says so in the log when our own secret is refused', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await verifyTurnstileToken('good-token', 'unknown', config('wrong'))).toBe('failed')
    expect(String(errors.mock.calls[0]?.[0])).toMatch(/TURNSTILE_SECRET_KEY/)
    expect(received[0]?.has('remoteip')).toBe(false)
  })

  it('is unavailable, not passed, when siteverify fails or does not answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    behaviour = 'http-500'
    expect(await verifyTurnstileToken('good-token', '203.0.113.7', config())).toBe('unavailable')
    expect(
      await verifyTurnstileToken('good-token', '203.0.113.7', {
        ...config(),
        verifyUrl: 'http://127.0.0.1:1/siteverify',
      }),
    ).toBe('unavailable')
  })

  it('fails a genuine token solved on another host or for another action (issue 38)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (const expected of [
      { ...SITE, hostname: 'www.outro-site.test' },
      { ...SITE, action: 'login' },
    ]) {
      expect(await verifyTurnstileToken('good-token', '203.0.113.7', config(), expected)).toBe(
        'failed',
      )
    }
  })
})

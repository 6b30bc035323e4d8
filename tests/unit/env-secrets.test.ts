import { afterEach, describe, expect, it, vi } from 'vitest'

// What lib/env.ts refuses at start so that no secret or lead leaves in the clear (issue 49): a
// lead destination over plain http to another machine, and a health token short enough to guess.

async function env(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value)
  vi.resetModules()
  return (await import('@/lib/env')).serverEnv
}

const WEBHOOK_SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`
const NONE = {
  LEAD_WEBHOOK_URL: '',
  LEAD_WEBHOOK_SECRET: '',
  RDSTATION_API_KEY: '',
  RDSTATION_API_URL: '',
  HEALTH_DETAILS_TOKEN: '',
}
const webhookAt = (url: string) => ({
  ...NONE,
  LEAD_WEBHOOK_URL: url,
  LEAD_WEBHOOK_SECRET: WEBHOOK_SECRET,
})
const rdStationAt = (url: string) => ({ ...NONE, RDSTATION_API_KEY: 'key', RDSTATION_API_URL: url })

describe('lib/env.ts', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('refuses a lead webhook over http to another machine, naming the variable but not the URL', async () => {
    // A catch-hook URL is itself the credential: it must not reach the log either.
    for (const hook of [
      'http://hooks.zapier.com/hooks/catch/123/abc/',
      // Not a URL at all (the scheme left out): refused the same way.
      'hooks.zapier.com/hooks/catch/123/abc/',
    ]) {
      const refusal = await env(webhookAt(hook)).then(
        () => undefined,
        (error: Error) => error.message,
      )
      expect(refusal, hook).toMatch(/^LEAD_WEBHOOK_URL must be an https:\/\/ URL/)
      expect(refusal, hook).not.toContain('zapier')
    }
  })

  it('refuses RD Station’s API over http to another machine, with or without the key', async () => {
    await expect(env(rdStationAt('http://api.rd.services'))).rejects.toThrow(
      /^RDSTATION_API_URL must be an https:\/\/ URL/,
    )
    // Named at start even before the key is set, not once it is.
    await expect(env({ ...NONE, RDSTATION_API_URL: 'http://10.0.0.8:8080' })).rejects.toThrow(
      /^RDSTATION_API_URL must be an https:\/\/ URL/,
    )
  })

  it('accepts https anywhere, and http only to a loopback host (the tests’ local receivers)', async () => {
    expect((await env(webhookAt('https://hooks.example.com/x'))).leadDelivery.webhook?.url).toBe(
      'https://hooks.example.com/x',
    )
    for (const local of [
      'http://127.0.0.1:3202/hooks/lead',
      'http://localhost:8080',
      'http://[::1]:8080',
    ]) {
      expect((await env(webhookAt(local))).leadDelivery.webhook?.url, local).toBe(local)
      expect((await env(rdStationAt(local))).leadDelivery.rdstation?.apiUrl, local).toBe(local)
    }
    // Names that only look local go over the network.
    for (const remote of ['http://127.0.0.1.example.com', 'http://localhost.example.com']) {
      await expect(env(webhookAt(remote)), remote).rejects.toThrow(/https:\/\//)
    }
  })

  it('refuses a HEALTH_DETAILS_TOKEN under 32 characters and says how to make one', async () => {
    await expect(env({ ...NONE, HEALTH_DETAILS_TOKEN: 'x'.repeat(31) })).rejects.toThrow(
      'HEALTH_DETAILS_TOKEN must be at least 32 characters long. Make one with: openssl rand -hex 32',
    )
    const token = 'f'.repeat(64)
    expect((await env({ ...NONE, HEALTH_DETAILS_TOKEN: token })).healthDetailsToken).toBe(token)
  })
  it('names every bad variable in one error, one line each, in the words it would have alone', async () => {
    const refusal = await env({
      ...NONE,
      TRUSTED_PROXY_HOPS: 'três',
      LEAD_WEBHOOK_URL: 'http://hooks.example.com/x',
      HEALTH_DETAILS_TOKEN: 'short',
      LEAD_NOTIFY_TO: '',
      SMTP_URL: 'smtp://smtp.example.com:25',
    }).then(
      () => undefined,
      (error: Error) => error.message,
    )
    expect(refusal?.split('\n')).toEqual([
      'TRUSTED_PROXY_HOPS="três" must be a whole number from 0 to 10.',
      expect.stringMatching(/^LEAD_WEBHOOK_URL must be an https:\/\/ URL/),
      'HEALTH_DETAILS_TOKEN must be at least 32 characters long. Make one with: openssl rand -hex 32',
      // Half a pair is named even beside another variable's bad value.
      'LEAD_NOTIFY_TO is not set, but SMTP_URL is. Set both LEAD_NOTIFY_TO and SMTP_URL, or neither.',
      'LEAD_WEBHOOK_SECRET is not set, but LEAD_WEBHOOK_URL is. Set both LEAD_WEBHOOK_URL and ' +
        'LEAD_WEBHOOK_SECRET, or neither.',
    ])
  })
})

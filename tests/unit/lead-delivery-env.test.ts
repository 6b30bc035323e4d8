import { afterEach, describe, expect, it, vi } from 'vitest'

// The lead destinations' settings (lib/env.ts): each optional, each pair both-or-neither.

async function env(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value)
  vi.resetModules()
  return (await import('@/lib/env')).serverEnv
}

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`
const NONE = {
  LEAD_NOTIFY_TO: '',
  SMTP_URL: '',
  LEAD_NOTIFY_FROM: '',
  LEAD_WEBHOOK_URL: '',
  LEAD_WEBHOOK_SECRET: '',
  RDSTATION_API_KEY: '',
  RDSTATION_API_URL: '',
  LEAD_DELIVERY_DATABASE_URL: '',
  ANALYTICS_DATABASE_URL: '',
}

describe('lead destinations in lib/env.ts', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('configures nothing by default', async () => {
    expect((await env(NONE)).leadDelivery).toEqual({
      email: undefined,
      webhook: undefined,
      rdstation: undefined,
    })
  })

  it('reads each destination', async () => {
    const { leadDelivery, leadDeliveryDatabaseUrl } = await env({
      ...NONE,
      LEAD_NOTIFY_TO: 'vendas@vigia.example, comercial@vigia.example',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      LEAD_WEBHOOK_URL: 'https://hooks.example.com/x',
      LEAD_WEBHOOK_SECRET: SECRET,
      RDSTATION_API_KEY: 'key',
      ANALYTICS_DATABASE_URL: 'postgres://a:b@db.example.com/postgres',
    })
    expect(leadDelivery.email).toEqual({
      to: ['vendas@vigia.example', 'comercial@vigia.example'],
      smtpUrl: 'smtps://user:pass@smtp.example.com:465',
      from: undefined,
    })
    expect(leadDelivery.webhook).toEqual({ url: 'https://hooks.example.com/x', secret: SECRET })
    expect(leadDelivery.rdstation).toEqual({ apiKey: 'key', apiUrl: 'https://api.rd.services' })
    // The courier never borrows the analytics login, which must not read leads (issue 49).
    expect(leadDeliveryDatabaseUrl).toBeUndefined()
    const own = await env({
      ...NONE,
      LEAD_DELIVERY_DATABASE_URL: 'postgres://courier:c@db.example.com/postgres',
      ANALYTICS_DATABASE_URL: 'postgres://a:b@db.example.com/postgres',
    })
    expect(own.leadDeliveryDatabaseUrl).toBe('postgres://courier:c@db.example.com/postgres')
  })

  it('refuses half a pair, a non-SMTP URL and a secret that is not whsec_', async () => {
    await expect(env({ ...NONE, LEAD_NOTIFY_TO: 'vendas@vigia.example' })).rejects.toThrow(
      /SMTP_URL is not set, but LEAD_NOTIFY_TO is/,
    )
    await expect(
      env({ ...NONE, LEAD_NOTIFY_TO: 'vendas@vigia.example', SMTP_URL: 'https://x' }),
    ).rejects.toThrow(/smtp:\/\/ or smtps:\/\//)
    await expect(
      env({ ...NONE, LEAD_WEBHOOK_URL: 'https://h.example.com', LEAD_WEBHOOK_SECRET: 'short' }),
    ).rejects.toThrow(/whsec_/)
    await expect(
      env({ ...NONE, LEAD_NOTIFY_TO: 'não é e-mail', SMTP_URL: 'smtp://h:25' }),
    ).rejects.toThrow(/e-mail addresses/)
  })
})

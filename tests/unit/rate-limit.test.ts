import { afterEach, describe, expect, it, vi } from 'vitest'

// Small limits, no Redis: each test imports a fresh copy of the module with these.
async function limits(env: Record<string, string> = {}) {
  vi.resetModules()
  vi.stubEnv('REDIS_URL', '')
  vi.stubEnv('DEMO_RATE_LIMIT_PER_MINUTE', '100')
  vi.stubEnv('DEMO_RATE_LIMIT_PER_CONTACT_PER_HOUR', '3')
  vi.stubEnv('DEMO_RATE_LIMIT_GLOBAL_PER_MINUTE', '1000')
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  return (await import('@/lib/security/rate-limit')).checkDemoRequestLimits
}

afterEach(() => {
  vi.unstubAllEnvs()
})

let n = 0
const freshIp = () => `198.51.100.${++n}`

describe('checkDemoRequestLimits', () => {
  it('lets one phone through three times an hour, whatever the address', async () => {
    const check = await limits()
    for (let i = 0; i < 3; i++) {
      expect(await check({ ip: freshIp(), phone: '5511999998888', email: `a${i}@b.com.br` })).toBe(
        'ok',
      )
    }
    expect(await check({ ip: freshIp(), phone: '5511999998888', email: 'z@b.com.br' })).toBe(
      'contact',
    )
    expect(await check({ ip: freshIp(), phone: '5511988887777', email: 'y@b.com.br' })).toBe('ok')
  })

  it('lets one e-mail through three times an hour, in any case and with any phone', async () => {
    const check = await limits()
    for (const email of ['Ana@Frota.com.br', 'ana@frota.com.br', ' ANA@FROTA.COM.BR']) {
      expect(await check({ ip: freshIp(), phone: null, email })).toBe('ok')
    }
    expect(await check({ ip: freshIp(), phone: '5511977776666', email: 'ana@frota.com.br' })).toBe(
      'contact',
    )
  })

  it('holds an IPv6 /64 to one allowance, however many of its addresses it uses', async () => {
    const check = await limits({ DEMO_RATE_LIMIT_PER_MINUTE: '2' })
    const results = []
    for (let i = 1; i <= 3; i++)
      results.push(
        await check({ ip: `2001:db8:7:7::${i}`, phone: null, email: `v6-${i}@b.com.br` }),
      )
    expect(results).toEqual(['ok', 'ok', 'address'])
    expect(await check({ ip: '2001:db8:7:8::1', phone: null, email: 'v6-x@b.com.br' })).toBe('ok')
  })

  it('caps the instance as a whole, whatever the addresses and contacts', async () => {
    const check = await limits({ DEMO_RATE_LIMIT_GLOBAL_PER_MINUTE: '5' })
    const results = []
    for (let i = 0; i < 6; i++)
      results.push(await check({ ip: freshIp(), phone: null, email: `g${i}@b.com.br` }))
    expect(results).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'global'])
  })
})

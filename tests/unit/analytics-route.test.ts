import { afterEach, describe, expect, it, vi } from 'vitest'

import { REPORT_MAX_DAYS } from '@/lib/analytics/report-schema'

// GET /api/analytics (docs/analytics.md, "Reading the figures") as a server with this environment
// runs it: every answer `private, no-store` (figures never kept by a browser or a cache in
// between), at most REPORT_MAX_DAYS a request, and 503 in Portuguese while Sanity (which vouches
// for a Studio user) or the database cannot be reached. Both are a closed port here.

const READ_TOKEN = 'analytics-read-token'

async function route() {
  vi.resetModules()
  vi.stubEnv('REDIS_URL', '')
  vi.stubEnv('ANALYTICS_READ_TOKEN', READ_TOKEN)
  vi.stubEnv('ANALYTICS_DATABASE_URL', 'postgres://vigia:senha@127.0.0.1:1/analytics')
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'testproj')
  vi.stubEnv('SANITY_API_HOST', 'http://127.0.0.1:1')
  const { GET } = await import('@/app/api/analytics/route')
  return async (query: string, authorization?: string) => {
    const response = await GET(
      new Request(`http://127.0.0.1:3000/api/analytics?${query}`, {
        headers: authorization ? { authorization } : {},
      }),
    )
    return {
      status: response.status,
      cacheControl: response.headers.get('cache-control'),
      error: ((await response.json().catch(() => ({}))) as { error?: string }).error,
    }
  }
}

/** The day `days` after 2026-01-01. */
const day = (days: number) =>
  new Date(Date.UTC(2026, 0, 1) + days * 86_400_000).toISOString().slice(0, 10)

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe('GET /api/analytics', { timeout: 30_000 }, () => {
  it(`answers ${REPORT_MAX_DAYS} days, refuses one more with 400, and every answer is private, no-store`, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const get = await route()
    const bearer = `Bearer ${READ_TOKEN}`
    // Both ends included: day(0) to day(399) is 400 days, past the cap's check (then the
    // unreachable database: 503).
    const longest = await get(`from=${day(0)}&to=${day(REPORT_MAX_DAYS - 1)}&by=day`, bearer)
    expect(longest.status).toBe(503)
    const tooLong = await get(`from=${day(0)}&to=${day(REPORT_MAX_DAYS)}&by=day`, bearer)
    expect(tooLong.status).toBe(400)
    expect(tooLong.error).toContain(String(REPORT_MAX_DAYS))
    const refused = await get(`from=${day(0)}&to=${day(1)}&by=day`)
    expect(refused.status).toBe(401)
    for (const answer of [longest, tooLong, refused])
      expect(answer.cacheControl).toBe('private, no-store')
  })

  it('answers 503 in Portuguese when the database cannot be reached', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const get = await route()
    const answer = await get(`from=${day(0)}&to=${day(6)}&by=page`, `Bearer ${READ_TOKEN}`)
    expect(answer).toEqual({
      status: 503,
      cacheControl: 'private, no-store',
      error: 'O banco de dados não respondeu. Tente de novo em instantes.',
    })
    expect(String(errors.mock.calls[0]?.[0])).toMatch(
      /^\[analytics\] The figures could not be read/,
    )
  })

  it('refuses the path filter with by=material, whose keys are not paths (issue 65)', async () => {
    const get = await route()
    const bearer = `Bearer ${READ_TOKEN}`
    const answer = await get(`from=${day(0)}&to=${day(6)}&by=material&path=/p/frotas`, bearer)
    expect(answer).toEqual({
      status: 400,
      cacheControl: 'private, no-store',
      error: 'O filtro "path" vale só com by=page, by=landing ou by=day.',
    })
  })

  it('answers 503 in Portuguese when Sanity cannot be asked about a Studio user', async () => {
    const get = await route()
    const answer = await get(`from=${day(0)}&to=${day(6)}&by=page`, 'Bearer studio-user-token')
    expect(answer).toEqual({
      status: 503,
      cacheControl: 'private, no-store',
      error: expect.stringMatching(/^Não foi possível confirmar o usuário com o Sanity agora/),
    })
  })
})

describe('POST /api/analytics/campaigns', { timeout: 30_000 }, () => {
  it('refuses the read token with 403 in Portuguese before touching the database (issue 49)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await route()
    const { GET, POST } = await import('@/app/api/analytics/campaigns/route')
    const request = (init: RequestInit = {}) =>
      new Request('http://127.0.0.1:3000/api/analytics/campaigns', {
        ...init,
        headers: { authorization: `Bearer ${READ_TOKEN}`, 'content-type': 'application/json' },
      })
    const named = await POST(request({ method: 'POST', body: '{"campaign":"black-friday"}' }))
    expect(named.status).toBe(403)
    expect(((await named.json()) as { error: string }).error).toMatch(/^Esta credencial só lê/)
    // Listing the names is reading: past the check, to the (unreachable) database.
    expect((await GET(request())).status).toBe(503)
  })
})

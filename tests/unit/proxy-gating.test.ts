import { NextRequest } from 'next/server'
import { afterEach, describe, expect, it, vi } from 'vitest'

// proxy.ts in front of every document section: a route below a document (its social image) is
// answered like the document's page, so an unknown slug costs no query wherever it sits; review
// tokens are checked for shape and rate-limited before the page runs (issue 38).

const TABLE = {
  redirects: {},
  known: {
    '/p': ['onibus-rodoviarios'],
    '/conteudos': ['como-o-celular-detecta-fadiga', 'feed.xml'],
    '/conteudos/categoria': ['seguranca'],
    '/conteudos/pagina': ['1', '2'],
  },
}

async function loadProxy() {
  vi.resetModules()
  vi.stubEnv('REDIS_URL', '')
  vi.stubEnv('TRUSTED_PROXY_HOPS', '1')
  vi.stubEnv('REVIEW_RATE_LIMIT_PER_MINUTE', '3')
  vi.stubEnv('REVIEW_RATE_LIMIT_GLOBAL_PER_MINUTE', '1000')
  const real = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) =>
    String(input).endsWith('/api/redirects') ? Response.json(TABLE) : real(input, init),
  )
  return (await import('@/proxy')).proxy
}

const NOT_FOUND = /\/_nao-encontrado\/404$/
const request = (path: string, ip = '203.0.113.5') =>
  new NextRequest(new URL(path, 'http://127.0.0.1:3000'), {
    headers: { 'x-forwarded-for': ip },
  })
const rewrite = (response: Response) => response.headers.get('x-middleware-rewrite') ?? ''
const passes = (response: Response) => response.headers.get('x-middleware-next') === '1'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe('the proxy gates every route below a document by its slug', () => {
  it.each([
    '/conteudos/ab12cd/opengraph-image',
    '/conteudos/ab12cd/opengraph-image-x1y2',
    '/conteudos/categoria/ab12cd/opengraph-image',
    '/conteudos/pagina/99/opengraph-image',
    '/p/ab12cd/opengraph-image',
    '/p/ab12cd',
    '/conteudos/ab12cd',
  ])('answers %j with the 404 page, before any page code', async (path) => {
    const proxy = await loadProxy()
    expect(rewrite(await proxy(request(path)))).toMatch(NOT_FOUND)
  })

  it.each([
    '/conteudos/como-o-celular-detecta-fadiga/opengraph-image',
    '/conteudos/como-o-celular-detecta-fadiga',
    '/conteudos/categoria/seguranca',
    '/conteudos/feed.xml',
    '/p/onibus-rodoviarios',
  ])('lets %j through', async (path) => {
    const proxy = await loadProxy()
    expect(passes(await proxy(request(path)))).toBe(true)
  })
})

describe('review links in the proxy', () => {
  const token = () => crypto.randomUUID().replace(/-/g, '').padEnd(43, 'A')

  it('answers a malformed token with the 404 page', async () => {
    const proxy = await loadProxy()
    for (const path of [
      '/revisao/nao-e-um-token',
      `/revisao/${token()}x`,
      `/revisao/${token()}/a`,
    ]) {
      expect(rewrite(await proxy(request(path))), path).toMatch(NOT_FOUND)
    }
  })

  it('limits lookups per visitor address, with 429 and a message in Portuguese', async () => {
    const proxy = await loadProxy()
    for (let i = 0; i < 3; i++)
      expect(passes(await proxy(request(`/revisao/${token()}`)))).toBe(true)
    const refused = await proxy(request(`/revisao/${token()}`))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(refused.headers.get('cache-control')).toMatch(/no-store/)
    expect(await refused.text()).toMatch(/Muitas tentativas de abrir links de revisão/)
    // Another visitor still has their allowance; malformed tokens spend none.
    expect(passes(await proxy(request(`/revisao/${token()}`, '203.0.113.6')))).toBe(true)
  })
})

describe('the savings calculator (/calculadora), rendered per request (issue 45)', () => {
  it('is rate-limited per visitor address like the other uncached pages, with 429 in Portuguese', async () => {
    vi.stubEnv('CALCULATOR_RATE_LIMIT_PER_MINUTE', '3')
    vi.stubEnv('CALCULATOR_RATE_LIMIT_GLOBAL_PER_MINUTE', '1000')
    const proxy = await loadProxy()
    for (let i = 0; i < 3; i++)
      expect(passes(await proxy(request(`/calculadora?frota=${10 + i}`)))).toBe(true)
    const refused = await proxy(request('/calculadora?frota=99'))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(await refused.text()).toMatch(/Aguarde um minuto/)
    expect(passes(await proxy(request('/calculadora', '203.0.113.6')))).toBe(true)
  })
})

describe('the routing table request', () => {
  it('carries the internal secret to this server only: it never follows a redirect (issue 49)', async () => {
    const proxy = await loadProxy()
    await proxy(request('/p/onibus-rodoviarios'))
    const call = vi
      .mocked(globalThis.fetch)
      .mock.calls.find(([input]) => String(input).endsWith('/api/redirects'))
    expect(call?.[1]).toMatchObject({ redirect: 'manual' })
    expect(new Headers(call?.[1]?.headers).has('x-internal-secret')).toBe(true)
  })
})

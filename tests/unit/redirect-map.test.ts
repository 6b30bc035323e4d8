import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  addWindowRedirects,
  buildRedirectMap,
  createRedirectMapCache,
  isSitePath,
  sitePath,
  redirectFor,
  redirectProblem,
  redirectSourcePaths,
  redirectTarget,
  type RedirectRules,
} from '@/lib/redirect-map'

const MAP = {
  redirects: { '/onibus': { to: '/p/onibus-rodoviarios', permanent: true } },
  known: { '/p': ['onibus-rodoviarios'] },
}

describe("the proxy's copy of the redirect map", () => {
  afterEach(() => vi.restoreAllMocks())

  it('asks the server at most once per second, one request at a time', async () => {
    const load = vi.fn(async () => MAP)
    const current = createRedirectMapCache(load, 1000)
    const now = Date.now()
    expect(await Promise.all([current(now), current(now), current(now)])).toEqual([MAP, MAP, MAP])
    expect(load).toHaveBeenCalledTimes(1)
    expect(await current(now + 500)).toEqual(MAP)
    expect(load).toHaveBeenCalledTimes(1)
    await current(now + 5000)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('keeps the last good copy when a refresh fails, and says so once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let fail = false
    const current = createRedirectMapCache(async () => {
      if (fail) throw new Error('HTTP 500')
      return MAP
    }, 0)
    expect(await current()).toEqual(MAP)
    fail = true
    expect(await current()).toEqual(MAP)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toMatch(/could not refresh the redirect map: Error: HTTP 500/)
  })

  it('means no table (the pages answer), not an error, when it never loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const current = createRedirectMapCache(async () => {
      throw new Error('ECONNREFUSED')
    })
    expect(await current()).toBeUndefined()
  })
})

const RULES: RedirectRules = {
  allowedHosts: ['loja.example.com.br'],
  pagePaths: new Set(['/privacidade', '/p/onibus-rodoviarios']),
  siteHost: 'www.example.com.br',
}

describe('redirect documents checked on the server', () => {
  it.each([
    '//evil.example/entrar',
    '/\\evil.example/entrar',
    '/%2Fevil.example/entrar',
    '/%2fevil.example',
    '/%5Cevil.example',
    '/%252Fevil.example',
    '/\t/evil.example',
    '/ /evil.example',
    '/a\\b',
    '/%E0%A4%A',
  ])('refuses the destination %j, which a browser can read as another host', (to) => {
    expect(isSitePath(to)).toBe(false)
    expect(redirectProblem({ from: '/promo', to }, RULES)).toBeDefined()
  })

  it.each(['/p/onibus-rodoviarios', '/', '/#contato', '/p/x?utm_source=a', '/privacidade'])(
    'accepts the site path %j',
    (to) => {
      expect(redirectProblem({ from: '/promo', to }, RULES)).toBeUndefined()
    },
  )

  it('accepts https only on an allowed host, or the site itself', () => {
    expect(
      redirectProblem({ from: '/loja', to: 'https://loja.example.com.br/x' }, RULES),
    ).toBeUndefined()
    expect(
      redirectProblem({ from: '/loja', to: 'https://www.example.com.br/p/a' }, RULES),
    ).toBeUndefined()
    for (const to of [
      'https://evil.example/entrar',
      'http://loja.example.com.br/x',
      'https://user:pw@loja.example.com.br/',
      'https://loja.example.com.br:8443/',
      'javascript:alert(1)',
      'https://[',
      'data:text/html,x',
    ]) {
      expect(redirectProblem({ from: '/loja', to }, RULES), to).toBeDefined()
    }
    expect(
      redirectProblem(
        { from: '/loja', to: 'https://loja.example.com.br/' },
        { ...RULES, allowedHosts: [] },
      ),
    ).toMatch(/REDIRECT_ALLOWED_HOSTS/)
  })

  it.each([
    '/studio',
    '/api',
    '/preview',
    '/p',
    '/conteudos',
    '/privacidade',
    '/p/onibus-rodoviarios',
    '/_next',
    '/a/b',
    'onibus',
    '/Onibus',
  ])('refuses the source %j (reserved, an existing page, or not a redirect path)', (from) => {
    expect(redirectProblem({ from, to: '/' }, RULES)).toBeDefined()
  })

  it.each([
    '/promo-volta',
    '/./promo-volta',
    '/promo-volta/',
    '/%70romo-volta',
    '/x/../promo-volta',
    'https://www.example.com.br/promo-volta',
  ])('refuses a destination %j that lands on its own source', (to) => {
    expect(redirectProblem({ from: '/promo-volta', to }, RULES)).toMatch(/loop/)
  })

  it('builds the map from the good documents, one log line per bad one, never throwing', () => {
    const lines: string[] = []
    const map = buildRedirectMap(
      [
        { from: '/onibus', to: '/p/onibus-rodoviarios', permanent: true },
        { from: '/temporaria', to: '/', permanent: false },
        { from: '/mau', to: 'https://[' },
        { from: '/studio', to: 'https://evil.example/entrar' },
        { from: 42, to: null },
        { from: '/a', to: '/b' },
        { from: '/b', to: '/a' },
      ],
      RULES,
      (line) => lines.push(line),
    )
    expect(map['/onibus']).toEqual({ to: '/p/onibus-rodoviarios', permanent: true })
    expect(map['/temporaria']).toEqual({ to: '/', permanent: false })
    expect(map).not.toHaveProperty('/mau')
    expect(map).not.toHaveProperty('/studio')
    // A two-redirect loop loses one of its two.
    expect(Object.keys(map).filter((from) => from === '/a' || from === '/b')).toHaveLength(1)
    expect(lines).toHaveLength(4)
    for (const line of lines) expect(line).toMatch(/^\[redirects\] Skipped the redirect from /)
  })
})

describe('redirectTarget', () => {
  it('keeps the visitor’s query string, merged with the destination’s own', () => {
    const request = new URL(
      'https://www.example.com.br/onibus?utm_source=google&utm_campaign=feira-2026',
    )
    expect(redirectTarget('/p/onibus-rodoviarios', request).toString()).toBe(
      'https://www.example.com.br/p/onibus-rodoviarios?utm_source=google&utm_campaign=feira-2026',
    )
    expect(redirectTarget('/p/x?utm_campaign=editor&ref=1', request).toString()).toBe(
      'https://www.example.com.br/p/x?utm_campaign=editor&ref=1&utm_source=google',
    )
    expect(redirectTarget('https://loja.example.com.br/a#b', request).toString()).toBe(
      'https://loja.example.com.br/a?utm_source=google&utm_campaign=feira-2026#b',
    )
  })
})

describe('redirects of campaign pages outside their window', () => {
  const start = Date.parse('2026-12-01T12:00:00Z')
  const end = Date.parse('2026-12-03T21:00:00Z')
  const window = { visibleFrom: '2026-12-01T12:00:00Z', visibleUntil: '2026-12-03T21:00:00Z' }
  const map = {
    '/p/feira': { to: '/', permanent: false, window },
    '/onibus': { to: '/p/onibus-rodoviarios', permanent: true },
  }

  it('apply before the start and from the end, never while the page is live', () => {
    expect(redirectFor(map, '/p/feira', start - 1)?.to).toBe('/')
    expect(redirectFor(map, '/p/feira', start)).toBeUndefined()
    expect(redirectFor(map, '/p/feira', end - 1)).toBeUndefined()
    expect(redirectFor(map, '/p/feira', end)?.to).toBe('/')
  })

  it('leave plain redirects as they are, and match no inherited key', () => {
    expect(redirectFor(map, '/onibus', start)?.permanent).toBe(true)
    expect(redirectFor(map, '/constructor')).toBeUndefined()
  })

  it('are checked like redirect documents, except that the page is their source', () => {
    const log = vi.fn()
    const built = addWindowRedirects(
      {},
      [
        { path: '/p/onibus-rodoviarios', to: '/', window },
        { path: '/p/feira', to: '//evil.example/entrar', window },
        { path: '/p/volta', to: '/p/./volta', window },
        { path: '/p/sem-destino', to: null, window },
      ],
      RULES,
      log,
    )
    expect(Object.keys(built)).toEqual(['/p/onibus-rodoviarios'])
    expect(built['/p/onibus-rodoviarios']).toEqual({ to: '/', permanent: false, window })
    expect(log).toHaveBeenCalledTimes(2)
  })
})

describe('redirects under the articles section', () => {
  it('may start from an old article, never from the section or a name the site routes', () => {
    expect(redirectProblem({ from: '/conteudos/velho', to: '/conteudos/novo' }, RULES)).toBe(
      undefined,
    )
    for (const from of ['/conteudos', '/conteudos/pagina', '/conteudos/categoria', '/revisao']) {
      expect(redirectProblem({ from, to: '/' }, RULES), from).toMatch(/reserved/)
    }
  })
})

describe('issue 38: targets judged by the URL they resolve to', () => {
  it.each([
    '/.//evil.example/entrar',
    '/%2e//evil.example/entrar',
    '/%2E%2E//evil.example/entrar',
    '/a/..//evil.example/entrar',
    '/a/%2e%2e//evil.example/entrar',
    '/./%2Fevil.example/entrar',
  ])('refuses %j, whose resolved path starts with //', (to) => {
    expect(sitePath(to)).toBeUndefined()
    expect(redirectProblem({ from: '/promo', to }, RULES)).toMatch(/plain path/)
    expect(
      redirectProblem({ from: '/promo', to: `https://www.example.com.br${to}` }, RULES),
      `on the site's own host: ${to}`,
    ).toMatch(/plain path/)
    const log = vi.fn()
    expect(addWindowRedirects({}, [{ path: '/p/feira', to, window: {} }], RULES, log)).toEqual({})
    expect(log).toHaveBeenCalledTimes(1)
  })

  it('emits the normalised path, query and hash, and answers with it', () => {
    expect(sitePath('/a/../p/onibus?x=1#y')).toBe('/p/onibus?x=1#y')
    expect(sitePath('/./p/onibus')).toBe('/p/onibus')
    const map = buildRedirectMap(
      [
        { from: '/ponto', to: '/x/../p/onibus-rodoviarios?ref=a#b' },
        { from: '/absoluto', to: 'https://www.example.com.br/./p/onibus-rodoviarios' },
      ],
      RULES,
    )
    expect(map['/ponto']?.to).toBe('/p/onibus-rodoviarios?ref=a#b')
    expect(map['/absoluto']?.to).toBe('/p/onibus-rodoviarios')
  })

  it('refuses a loop through absolute URLs to the site itself', () => {
    const log = vi.fn()
    const map = buildRedirectMap(
      [
        { from: '/a', to: 'https://www.example.com.br/b' },
        { from: '/b', to: 'https://www.example.com.br/a' },
      ],
      RULES,
      log,
    )
    expect(Object.keys(map)).toHaveLength(1)
    expect(log.mock.calls.join('\n')).toMatch(/part of a loop/)
  })

  it('refuses window redirects that point at each other, or back through a redirect document', () => {
    const log = vi.fn()
    const pair = addWindowRedirects(
      {},
      [
        { path: '/p/ida', to: '/p/volta', window: {} },
        { path: '/p/volta', to: 'https://www.example.com.br/p/ida?x=1', window: {} },
      ],
      RULES,
      log,
    )
    expect(Object.keys(pair)).toHaveLength(1)
    expect(log.mock.calls.join('\n')).toMatch(/window redirect of .* part of a loop/)

    const through = addWindowRedirects(
      buildRedirectMap([{ from: '/velha', to: '/p/feira' }], RULES),
      [{ path: '/p/feira', to: '/velha', window: {} }],
      RULES,
      () => {},
    )
    // The page's own redirect goes; the redirect document keeps working while the page is live.
    expect(Object.keys(through)).toEqual(['/velha'])
  })
})

describe("the webhook's warm-up list (issue 45)", () => {
  it('keeps only the paths a redirect may start from: never another host', () => {
    expect(
      redirectSourcePaths([
        '/onibus',
        '/p/velha',
        '//attacker.example/x',
        'https://attacker.example/x',
        '/\\attacker.example',
        '/../api/analytics',
        null,
      ]),
    ).toEqual(['/onibus', '/p/velha'])
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'

// Draft mode's enable route (app/api/draft-mode/enable) lands the editor on a path of this site
// only, judged by the URL the target resolves to (lib/site-path.ts), and hands it on normalised:
// defineEnableDraftMode redirects to the path it resolves, so "/.//evil.example" would be a
// redirect to "//evil.example".

const { handed } = vi.hoisted(() => ({ handed: [] as string[] }))
vi.mock('next-sanity/draft-mode', () => ({
  defineEnableDraftMode: () => ({
    GET: async (request: Request) => {
      handed.push(request.url)
      return new Response(null, { status: 307 })
    },
  }),
}))
vi.mock('@/lib/content/sanity-client', () => ({ draftModeClient: () => ({}) }))

async function route() {
  vi.resetModules()
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'testproj')
  vi.stubEnv('SANITY_API_READ_TOKEN', 'test-read-token')
  return (await import('@/app/api/draft-mode/enable/route')).GET
}

const enable = (target: string) =>
  new Request(
    `http://127.0.0.1/api/draft-mode/enable?sanity-preview-secret=x&sanity-preview-pathname=${encodeURIComponent(target)}`,
  )

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  handed.length = 0
})

describe('draft mode’s preview target', () => {
  it.each([
    '/.//evil.example/entrar',
    '/%2e//evil.example/entrar',
    '/a/..//evil.example/entrar',
    '//evil.example/entrar',
    'https://evil.example/',
  ])('refuses %j with 400, before checking any secret', async (target) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const GET = await route()
    const response = await GET(enable(target))
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/caminho deste site/)
    expect(handed).toEqual([])
  })

  it('hands a path of this site on normalised', async () => {
    const GET = await route()
    expect((await GET(enable('/x/../p/onibus?y=1'))).status).toBe(307)
    expect(new URL(handed[0]!).searchParams.get('sanity-preview-pathname')).toBe('/p/onibus?y=1')
  })
})

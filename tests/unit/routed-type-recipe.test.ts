import { encodeSignatureHeader } from '@sanity/webhook'
import { NextRequest } from 'next/server'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'

// docs/routed-types.md, "Adding a routed type", followed for a throwaway type that ships nowhere:
// case studies at /casos/<slug>, with review links. Steps 3 (its definition and queries in
// sanity/routed-type-definitions.ts) and 7 (its view in lib/routed-type-views.tsx) are the mocks
// below; step 4, its route, reads what the test reads (getRoutedDocument, staticParams); the other
// steps are files routed-types.test.ts checks for every registered type. Nothing else is added
// for it. Its page data, the sitemap, the routing table and a review link's page are then read
// through the real code against a recorded Content Lake, and a publish goes through the webhook:
// every cached answer that shows it must be revalidated, its page regenerated and purged, and the
// other case studies' pages left cached.

const SECRET = 'recipe-secret'
const SITE = 'https://vigia.example'
const PURGE = 'https://purge.example/purge'

const lake = vi.hoisted(() => {
  const CASE_STUDY_QUERY = `*[_type == "caseStudy" && slug.current == $slug][0]{title, "slug": slug.current}`
  const CASE_STUDY_SLUGS_QUERY = `*[_type == "caseStudy" && defined(slug.current)]{"slug": slug.current, _updatedAt, "noindex": false, visibleFrom, visibleUntil, hiddenRedirect}`
  const CASE_STUDY_REVIEW_QUERY = `coalesce(*[_type == "caseStudy" && _id == "drafts." + $id][0], *[_type == "caseStudy" && _id == $id][0]){title}`
  // A review link to the draft of case-d, made by the Studio's action (its token's hash).
  const review = { token: 'r'.repeat(43), hash: '', pageId: 'drafts.case-d' }
  const documents = [
    { title: 'Frota A', slug: 'caso-a', _updatedAt: '2026-11-01T12:00:00Z', noindex: false },
    { title: 'Frota B', slug: 'caso-b', _updatedAt: '2026-10-01T12:00:00Z', noindex: false },
    // Published, but its window starts in 2099.
    {
      title: 'Frota C',
      slug: 'caso-c',
      _updatedAt: '2026-09-01T12:00:00Z',
      noindex: false,
      visibleFrom: '2099-01-01T00:00:00Z',
      visibleUntil: null,
      hiddenRedirect: null,
    },
  ]
  const reads: Array<{ query: string; params: Record<string, unknown>; tags: string[] }> = []
  return {
    CASE_STUDY_QUERY,
    CASE_STUDY_SLUGS_QUERY,
    review,
    reads,
    // Step 3 of the recipe: the entry in ROUTED_TYPES, as docs/routed-types.md describes it.
    caseStudy: {
      documentType: 'caseStudy',
      prefix: '/casos',
      section: 'é o prefixo dos casos de clientes (/casos/...)',
      redirectable: true,
      windowed: true,
      sitemap: { changeFrequency: 'monthly', priority: 0.6 },
      queries: {
        document: CASE_STUDY_QUERY,
        slugs: CASE_STUDY_SLUGS_QUERY,
        review: CASE_STUDY_REVIEW_QUERY,
      },
      shows: ['claim'],
      studio: {
        title: 'Casos',
        of: 'do caso',
        group: 'campaigns',
        performance: true,
        reviewLinks: true,
      },
    },
    fetch: async (
      query: string,
      params: Record<string, unknown>,
      options?: { next?: { tags?: string[] } },
    ) => {
      const tags = options?.next?.tags ?? []
      reads.push({ query, params, tags })
      if (query === CASE_STUDY_QUERY)
        return documents.find((document) => document.slug === params.slug) ?? null
      if (query === CASE_STUDY_SLUGS_QUERY) return documents
      if (query.includes('_type == "reviewLink"'))
        return params.hash === review.hash
          ? {
              pageId: review.pageId,
              expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
              createdAt: new Date(Date.now() - 86_400_000).toISOString(),
              revoked: false,
            }
          : null
      if (query === CASE_STUDY_REVIEW_QUERY)
        return params.id === 'case-d' ? { title: 'Frota D (rascunho)' } : null
      // The other types' review queries: no such document.
      if (query.includes('$id')) return null
      // Every other list (legal pages, campaign pages, articles, categories, redirects): empty.
      return []
    },
  }
})
vi.mock('@/sanity/routed-type-definitions', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/sanity/routed-type-definitions')>()
  return { ...original, ROUTED_TYPES: { ...original.ROUTED_TYPES, caseStudy: lake.caseStudy } }
})
// Step 7 of the recipe: its view of the review query's result.
vi.mock('@/lib/routed-type-views', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/lib/routed-type-views')>()
  const caseStudy = ({ doc }: { doc: { title: string } }) => createElement('h1', null, doc.title)
  return { ...original, ROUTED_VIEWS: { ...original.ROUTED_VIEWS, caseStudy } }
})
// A configured Sanity project whose client answers from the recorder above (the real
// lib/content/sanity-client.ts, with its cache options, in between).
vi.mock('@/sanity/env', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  isSanityConfigured: true,
  projectId: 'recipe',
}))
vi.mock('next-sanity', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  createClient: () => ({ fetch: lake.fetch }),
}))

// The webhook route's side effects, observed: Next's cache and after() exist only in a server.
const next = vi.hoisted(() => ({ revalidateTag: vi.fn(), after: vi.fn() }))
vi.mock('next/cache', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  revalidateTag: next.revalidateTag,
  // The visibility boundary's cache entry (lib/content/visibility-cache.ts) needs a Next server.
  unstable_cache: (read: () => Promise<unknown>) => read,
}))
vi.mock('next/server', async (importOriginal) => ({
  ...(await importOriginal<typeof import('next/server')>()),
  after: next.after,
}))

process.env.SANITY_REVALIDATE_SECRET = SECRET
process.env.SANITY_WEBHOOK_CONSISTENCY_DELAY_MS = '0'
process.env.NEXT_PUBLIC_SITE_URL = SITE
process.env.CDN_PURGE_URL = PURGE
process.env.SANITY_API_READ_TOKEN = 'recipe-read-token'

// The throwaway type is not in RoutedTypeName: the registry knows it only at run time.
const NAME = 'caseStudy' as never

const { getRoutedDocument } = await import('@/lib/content')
const { staticParams } = await import('@/lib/routed-type-plans')
const { documentTag } = await import('@/lib/content/tags')
const { RESERVED_SLUGS, REDIRECT_FROM_PATTERN, documentPath, routedSlugProblem } =
  await import('@/sanity/lib/routed-type-rules')
const sitemap = (await import('@/app/sitemap')).default
const routingTable = (await import('@/app/api/redirects/route')).GET
const webhook = await import('@/app/api/revalidate/route')
const ReviewPage = (await import('@/app/revisao/[token]/page')).default
lake.review.hash = await (await import('@/lib/review-token')).hashReviewToken(lake.review.token)

/** The tags of the reads `run` makes. */
async function tagsOf(run: () => Promise<unknown>, query?: string): Promise<string[]> {
  const from = lake.reads.length
  await run()
  return lake.reads.slice(from).flatMap((read) => (!query || read.query === query ? read.tags : []))
}

const stale = (tags: string[], revalidated: string[]) =>
  !tags.some((tag) => revalidated.includes(tag))

describe('a routed type added by the recipe alone', () => {
  let page: string[]
  let otherPage: string[]
  let sitemapList: string[]
  let routingList: string[]

  beforeAll(async () => {
    page = await tagsOf(async () =>
      expect(await getRoutedDocument(NAME, 'caso-a')).toMatchObject({ title: 'Frota A' }),
    )
    otherPage = await tagsOf(() => getRoutedDocument(NAME, 'caso-b'))
    sitemapList = await tagsOf(async () => {
      const urls = (await sitemap()).map((entry) => entry.url)
      expect(urls).toContain(`${SITE}/casos/caso-a`)
      // Outside its window: out of the sitemap, like a scheduled campaign page.
      expect(urls).not.toContain(`${SITE}/casos/caso-c`)
    }, lake.CASE_STUDY_SLUGS_QUERY)
    routingList = await tagsOf(async () => {
      const table = await (await routingTable()).json()
      expect(table.known['/casos']).toEqual(['caso-a', 'caso-b', 'caso-c'])
    }, lake.CASE_STUDY_SLUGS_QUERY)
  })

  it('is prerendered, has its reserved section, redirects and Desempenho path', async () => {
    expect(await staticParams(NAME, 'slug')).toEqual([
      { slug: 'caso-a' },
      { slug: 'caso-b' },
      { slug: 'caso-c' },
    ])
    // Its page answers 404 before its window (the editor's preview still sees it).
    expect(await getRoutedDocument(NAME, 'caso-c')).toBeNull()
    expect(await getRoutedDocument(NAME, 'caso-c', { anyWindow: true })).toMatchObject({
      title: 'Frota C',
    })
    expect(RESERVED_SLUGS.get('casos')).toMatch(/casos de clientes/)
    expect(REDIRECT_FROM_PATTERN.test('/casos/caso-antigo')).toBe(true)
    expect(documentPath('caseStudy', 'caso-a')).toBe('/casos/caso-a')
    expect(routedSlugProblem(NAME, 'studio')).toMatch(/Sanity Studio/)
  })

  it('has review links: its draft, in its view, at /revisao/<token>', async () => {
    const page = await ReviewPage({
      params: Promise.resolve({ token: lake.review.token }),
      searchParams: Promise.resolve({}),
    })
    expect(renderToStaticMarkup(page)).toContain('<h1>Frota D (rascunho)</h1>')
  })

  it('is live everywhere within the publish: revalidated, regenerated and purged', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const body = JSON.stringify({
      _type: 'caseStudy',
      _id: 'case-a',
      slug: 'caso-a',
      before: { slug: 'caso-velho' },
    })
    const response = await webhook.POST(
      new NextRequest('http://127.0.0.1:3000/api/revalidate', {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'sanity-webhook-signature': await encodeSignatureHeader(body, Date.now(), SECRET),
        },
      }),
    )
    expect(response.status).toBe(200)
    const revalidated = next.revalidateTag.mock.calls.map(([tag]) => tag as string)

    // Its page, its old address, and the lists the sitemap and the routing table read.
    expect(stale(page, revalidated), `its page's data (${page}) is revalidated`).toBe(false)
    expect(revalidated).toContain(documentTag('caseStudy', 'caso-velho'))
    expect(stale(sitemapList, revalidated), 'the sitemap is revalidated').toBe(false)
    expect(stale(routingList, revalidated), 'the routing table is revalidated').toBe(false)
    // A publish costs what it changed: another case study's page stays cached.
    expect(stale(otherPage, revalidated), 'caso-b stays cached').toBe(true)

    // After the answer: the pages regenerated on this instance, the CDN told to drop them.
    const requested: Array<{ url: string; body?: string }> = []
    vi.stubGlobal('fetch', async (url: URL | string, init?: RequestInit) => {
      requested.push({ url: String(url), body: init?.body as string | undefined })
      return new Response('{}', { status: 200 })
    })
    for (const [task] of next.after.mock.calls) await (task as () => Promise<void>)()
    vi.unstubAllGlobals()
    const warmed = requested.filter((request) => !request.url.startsWith(PURGE))
    expect(warmed.map((request) => new URL(request.url).pathname)).toEqual([
      // The routing table first: proxy.ts answers 404 for a slug it does not list.
      '/api/redirects',
      '/casos/caso-a',
      '/casos/caso-velho',
      '/sitemap.xml',
    ])
    const purged = requested.filter((request) => request.url.startsWith(PURGE))
    expect(purged).toHaveLength(1)
    expect(JSON.parse(purged[0]!.body!).files).toEqual(
      expect.arrayContaining([`${SITE}/casos/caso-a`, `${SITE}/casos/caso-velho`]),
    )
  })
})

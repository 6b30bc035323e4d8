import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

import { beforeEach, describe, expect, it, vi } from 'vitest'
import { readRecipe } from '../support/recipe'

// The routed types (sanity/routed-type-definitions.ts, lib/routed-type-plans.ts) and what a publish of each
// changes. lib/content is replaced by a fixed set of answers: what is tested
// is which tags, paths and purges the registry derives from them.
const content = vi.hoisted(() => ({
  getArticlePublishFacts: vi.fn(),
  getArticlesShowing: vi.fn(),
  getArticleSlugs: vi.fn(),
  getCategorySlugs: vi.fn(),
  getRedirectPaths: vi.fn(),
  getRoutedSlugs: vi.fn(),
  liveOnly: vi.fn(async (items: unknown[]) => items),
}))
vi.mock('@/lib/content', () => content)

const { ROUTED, ROUTED_TYPE_NAMES, WEBHOOK_PROJECTION, publishPlan, staticParams } =
  await import('@/lib/routed-type-plans')
const { knownSlugs, documentPagePaths } = await import('@/lib/known-paths')
const { ROUTED_TYPE_LIST, REDIRECT_FROM_PATTERN, RESERVED_SLUGS } =
  await import('@/sanity/lib/routed-type-rules')
const { CONTENT_TAGS } = await import('@/lib/content/tags')
const { SLUG_MATCHER_SEGMENT } = await import('@/sanity/lib/paths')
const { schemaTypes } = await import('@/sanity/schema-types')

const root = path.resolve(__dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

/** proxy.ts's matcher, read from its source: Next needs it as a literal there. */
function proxyMatcher(): string[] {
  const block = /matcher:\s*\[([\s\S]*?)\n\s*\]/.exec(read('proxy.ts'))?.[1] ?? ''
  return [...block.matchAll(/'([^']+)'/g)].map((match) => match[1]!)
}

/** The page route serving one document under this prefix: app<prefix>/[param]/page.tsx. */
function routeFile(prefix: string): string | undefined {
  const dir = path.join(root, 'app', prefix)
  if (!existsSync(dir)) return undefined
  const param = readdirSync(dir).find((name) => /^\[[a-z]+\]$/.test(name))
  const file = param && path.join('app', prefix, param, 'page.tsx')
  return file && existsSync(path.join(root, file)) ? file : undefined
}

const articles = Array.from({ length: 30 }, (_, index) => ({
  slug: `artigo-${index + 1}`,
  noindex: false,
  publishedAt: `2026-01-${String(30 - index).padStart(2, '0')}T12:00:00Z`,
  _updatedAt: null,
  visibleFrom: null,
  visibleUntil: null,
  hiddenRedirect: null,
}))

beforeEach(() => {
  content.getArticleSlugs.mockResolvedValue(articles)
  content.getCategorySlugs.mockResolvedValue([{ slug: 'fadiga', _updatedAt: null, latest: null }])
  content.getRedirectPaths.mockResolvedValue(['/onibus', '/p/velha'])
  // Types with the default fetchers list through getRoutedSlugs.
  const rows: Record<string, object[]> = {
    legalPage: [{ slug: 'privacidade', _updatedAt: null }],
    campaignPage: [
      { slug: 'onibus', noindex: false, _updatedAt: null, visibleFrom: null, hiddenRedirect: '/' },
    ],
    material: [{ slug: 'checklist', _updatedAt: null, noindex: false, visibleFrom: null }],
  }
  content.getRoutedSlugs.mockImplementation(async (name: string) => rows[name] ?? [])
})

const routedRecipe = () => readRecipe('docs/routed-types.md', '## Adding a routed type')
/** docs/routed-types.md's recipe. */
const recipeText = () => routedRecipe().text
/** The files docs/routed-types.md says a new routed type touches by hand, as it lists them. */
const recipeFiles = () => routedRecipe().files

/** The bundled dataset's documents. */
function bundledDocuments(): { _id: string; _type: string }[] {
  return read('sanity/dataset/production.ndjson')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { _id: string; _type: string })
}

describe('adding a routed type: every step of docs/routed-types.md done for every type', () => {
  it('lists at most 8 files', () => {
    expect(recipeFiles().length).toBeGreaterThan(0)
    expect(recipeFiles().length).toBeLessThanOrEqual(8)
    // "take N files by hand": the count the doc states is its list's length.
    expect(routedRecipe().statedCount).toBe(recipeFiles().length)
  })

  it.each(ROUTED_TYPE_LIST.map((routed) => [routed.name, routed] as const))(
    '%s',
    (name, routed) => {
      const { prefix, documentType } = routed
      const files = recipeFiles()
      // Its Sanity schema, registered.
      expect(files).toContain('sanity/schema-types/index.ts')
      if (documentType)
        expect(
          schemaTypes.map((type) => type.name),
          `schemaTypes has ${documentType}`,
        ).toContain(documentType)
      // Its definition.
      expect(files).toContain('sanity/routed-type-definitions.ts')
      // A page route under its prefix whose prerender comes from the registry.
      expect(files).toContain('app<prefix>/[slug]/page.tsx')
      const route = routeFile(prefix)
      expect(route, `a route app${prefix}/[param]/page.tsx for ${name}`).toBeDefined()
      expect(read(route!), `${route} prerenders through staticParams('${name}', ...)`).toContain(
        `staticParams('${name}'`,
      )
      // proxy.ts's matcher reaches its addresses (the unknown-address gate), unless at the root.
      expect(files).toContain('proxy.ts')
      if (prefix) {
        expect(
          proxyMatcher().some((entry) => {
            const base = entry.replace(/\/:path\*$/, '')
            return entry.endsWith('/:path*') && (prefix === base || prefix.startsWith(`${base}/`))
          }),
          `proxy.ts's matcher has ${prefix}/:path* (or a prefix above it)`,
        ).toBe(true)
        // Its top section is a name no root page or redirect can take.
        expect(RESERVED_SLUGS.has(prefix.split('/')[1]!)).toBe(true)
      }
      // Its document type reaches the webhook (WEBHOOK_FILTER lets it through): a cache tag.
      if (documentType) expect(Object.keys(CONTENT_TAGS)).toContain(documentType)
      // The generated files, named after the list (not written by hand).
      expect(recipeText()).toMatch(
        /`npm run typegen` writes `sanity\/schema\.json` and `sanity\/types\.ts`/,
      )
      // Framed by Presentation.
      expect(files).toContain('app/preview<prefix>/[slug]/page.tsx')
      if (routed.studio?.preview)
        expect(routeFile(`/preview${prefix}`), `app/preview${prefix}/[slug]/page.tsx`).toBeDefined()
      // A published sample in the bundled dataset, so the site shows the type offline.
      expect(files).toContain('sanity/dataset/production.ndjson')
      if (documentType)
        expect(
          bundledDocuments().some(
            (doc) => doc._type === documentType && !doc._id.startsWith('drafts.'),
          ),
          `the bundled dataset publishes a ${documentType}`,
        ).toBe(true)
      // Review links: its draft read by queries.review, shown by its ROUTED_VIEWS entry.
      expect(files).toContain('lib/routed-type-views.tsx')
    },
  )

  it('refuses studio.reviewLinks without queries.review when the definitions load', async () => {
    vi.resetModules()
    vi.doMock('@/sanity/routed-type-definitions', async (importOriginal) => {
      const original = await importOriginal<typeof import('@/sanity/routed-type-definitions')>()
      // Review links, and no query to read the draft a link names.
      const broken = { ...original.ROUTED_TYPES.material, queries: {} }
      return { ...original, ROUTED_TYPES: { ...original.ROUTED_TYPES, material: broken } }
    })
    await expect(import('@/sanity/lib/routed-type-rules')).rejects.toThrow(
      'routed type material: studio.reviewLinks needs queries.review',
    )
    vi.doUnmock('@/sanity/routed-type-definitions')
    vi.resetModules()
  })

  it('keeps proxy.ts matcher’s document sections equal to the registry’s prefixes', () => {
    const sections = proxyMatcher()
      // Review links and experiment variants (lib/experiments/serve.ts) are sections, not documents.
      .filter(
        (entry) =>
          entry.endsWith('/:path*') && !['/revisao/:path*', '/variante/:path*'].includes(entry),
      )
      .map((entry) => entry.replace(/\/:path\*$/, ''))
      .sort()
    const prefixes = ROUTED_TYPE_LIST.map((routed) => routed.prefix)
    // Each top section of the registry, and nothing else.
    const top = [...new Set(prefixes.filter(Boolean).map((prefix) => `/${prefix.split('/')[1]}`))]
    expect(sections).toEqual(top.sort())
    // A root type needs the one-segment entry (it also carries root redirects).
    expect(proxyMatcher()).toContain(`/:slug(${SLUG_MATCHER_SEGMENT})`)
  })

  it('lets a redirect start only under the redirectable prefixes', () => {
    expect(REDIRECT_FROM_PATTERN.test('/p/velha')).toBe(true)
    expect(REDIRECT_FROM_PATTERN.test('/conteudos/velho')).toBe(true)
    expect(REDIRECT_FROM_PATTERN.test('/conteudos/categoria/x')).toBe(false)
    expect(REDIRECT_FROM_PATTERN.test('/revisao/x')).toBe(false)
  })
})

describe('lists from the registry', () => {
  it('knows every gated prefix’s slugs, the feed and the listing’s pages', async () => {
    expect(await knownSlugs()).toEqual({
      '/p': ['onibus'],
      '/conteudos': [...articles.map((article) => article.slug), 'feed.xml'],
      '/conteudos/categoria': ['fadiga'],
      '/conteudos/pagina': ['1', '2', '3'],
      '/materiais': ['checklist'],
    })
    const paths = await documentPagePaths()
    for (const path of ['/privacidade', '/p/onibus', '/conteudos/artigo-3', '/conteudos/feed.xml'])
      expect(paths).toContain(path)
  })

  it('prerenders the newest articles only, every campaign and legal page', async () => {
    const params = await staticParams('article', 'slug')
    expect(params).toHaveLength(Math.min(articles.length, ROUTED.article.prerender))
    content.getArticleSlugs.mockResolvedValue(
      Array.from({ length: 1000 }, (_, index) => ({ ...articles[0], slug: `a-${index}` })),
    )
    const many = await staticParams('article', 'slug')
    expect(many).toHaveLength(ROUTED.article.prerender)
    expect(many[0]).toEqual({ slug: 'a-0' })
    expect(await staticParams('legalPage', 'slug')).toEqual([{ slug: 'privacidade' }])
  })
})

describe('what a publish changes', () => {
  const facts = (overrides: Record<string, unknown> = {}) => ({
    article: {
      slug: 'artigo-20',
      publishedAt: '2026-01-11T12:00:00Z',
      categories: ['category-fadiga'],
      newer: 19,
    },
    categories: [
      {
        _id: 'category-fadiga',
        slug: 'fadiga',
        cutoff: { _id: 'article-13', publishedAt: '2026-01-18T12:00:00Z' },
      },
    ],
    latestBlocks: ['onibus'],
    ...overrides,
  })

  it('an old article: its own page and the lists that show it, not the other articles', async () => {
    content.getArticlePublishFacts.mockResolvedValue(facts())
    const plan = await publishPlan({
      type: 'article',
      id: 'article-20',
      slug: 'artigo-20',
      before: {
        slug: 'artigo-20',
        publishedAt: '2026-01-11T12:00:00Z',
        categories: ['category-fadiga'],
      },
    })
    expect(plan!.tags.sort()).toEqual(['sanity:article', 'sanity:doc:article:artigo-20'])
    expect(plan!.paths).toEqual([
      '/api/redirects',
      '/conteudos/artigo-20',
      '/conteudos/pagina/2',
      '/conteudos/categoria/fadiga',
      '/conteudos/feed.xml',
      '/sitemap.xml',
      '/p/onibus',
    ])
    expect(plan!.purgePrefixes).toEqual([])
  })

  it('a new article enters the related lists of its category; a renamed one refreshes its old address', async () => {
    content.getArticlePublishFacts.mockResolvedValue(
      facts({
        article: {
          slug: 'novo',
          publishedAt: '2026-02-01T12:00:00Z',
          categories: ['category-fadiga'],
          newer: 0,
        },
      }),
    )
    const plan = await publishPlan({
      type: 'article',
      id: 'article-novo',
      slug: 'novo',
      before: {
        slug: 'antigo',
        publishedAt: '2026-02-01T12:00:00Z',
        categories: ['category-fadiga'],
      },
    })
    expect(plan!.tags).toEqual(
      expect.arrayContaining([
        'sanity:doc:article:novo',
        'sanity:doc:article:antigo',
        'sanity:related:category-fadiga',
      ]),
    )
    expect(plan!.paths.slice(0, 4)).toEqual([
      '/api/redirects',
      '/conteudos/novo',
      '/conteudos/antigo',
      '/conteudos',
    ])
    // The article pages that show it are too many to name: the CDN drops them by prefix.
    expect(plan!.purgePrefixes).toEqual(['/conteudos/'])
  })

  it('a deleted article that was among the newest leaves its category’s related lists', async () => {
    content.getArticlePublishFacts.mockResolvedValue(facts({ article: null }))
    const plan = await publishPlan({
      type: 'article',
      id: 'article-2',
      slug: 'artigo-2',
      before: {
        slug: 'artigo-2',
        publishedAt: '2026-01-29T12:00:00Z',
        categories: ['category-fadiga'],
      },
    })
    expect(plan!.tags).toContain('sanity:related:category-fadiga')
    expect(plan!.paths).toContain('/conteudos/artigo-2')
  })

  it('without the before() part of the projection, an article gone refreshes every related list', async () => {
    content.getArticlePublishFacts.mockResolvedValue(facts({ article: null, categories: [] }))
    const plan = await publishPlan({ type: 'article', id: 'article-2', slug: 'artigo-2' })
    expect(plan!.tags).toContain('sanity:related')
  })

  it('a category: the pages of its articles and the related lists that show them, not the other articles', async () => {
    content.getArticlesShowing.mockResolvedValue([
      { slug: 'artigo-1', categories: ['category-fadiga'] },
      { slug: 'artigo-2', categories: ['category-fadiga', 'category-lgpd'] },
    ])
    const plan = await publishPlan({ type: 'category', id: 'category-fadiga', slug: 'fadiga' })
    expect(content.getArticlesShowing).toHaveBeenCalledWith('category-fadiga')
    expect(plan!.tags.sort()).toEqual([
      'sanity:category',
      'sanity:doc:article:artigo-1',
      'sanity:doc:article:artigo-2',
      'sanity:related:category-fadiga',
      'sanity:related:category-lgpd',
    ])
    expect(plan!.paths).toEqual([
      '/api/redirects',
      '/conteudos/categoria/fadiga',
      '/conteudos',
      '/conteudos/feed.xml',
      '/sitemap.xml',
    ])
  })

  it('an author: the pages of their articles and the feed', async () => {
    content.getArticlesShowing.mockResolvedValue([{ slug: 'artigo-1', categories: ['c'] }])
    const plan = await publishPlan({ type: 'author', id: 'author-equipe' })
    expect(plan!.tags).toEqual(['sanity:author', 'sanity:doc:article:artigo-1'])
    expect(plan!.paths).toEqual(['/conteudos', '/conteudos/feed.xml'])
  })

  it('a category or author whose articles cannot be read: every article page and related list', async () => {
    content.getArticlesShowing.mockRejectedValue(new Error('Content Lake: 503'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (const type of ['category', 'author']) {
      const plan = await publishPlan({ type, id: `${type}-x` })
      expect(plan!.tags).toEqual(expect.arrayContaining(['sanity:doc:article', 'sanity:related']))
    }
    expect(warn).toHaveBeenCalledTimes(2)
    warn.mockRestore()
  })

  it('campaign pages, legal pages, redirects and the types shown everywhere', async () => {
    expect(await publishPlan({ type: 'campaignPage', id: 'x', slug: 'onibus' })).toEqual({
      tags: ['sanity:campaignPage', 'sanity:doc:campaignPage:onibus'],
      paths: ['/api/redirects', '/p/onibus', '/sitemap.xml'],
      purgePrefixes: [],
    })
    // A slug that is not a path segment is never requested.
    expect((await publishPlan({ type: 'campaignPage', id: 'x', slug: '../x' }))!.paths).toEqual([
      '/api/redirects',
      '/sitemap.xml',
    ])
    // The default plan of a routed type (campaign pages' too): the routing table lists its slugs.
    expect((await publishPlan({ type: 'legalPage', id: 'x', slug: 'lgpd' }))!.paths).toEqual([
      '/api/redirects',
      '/lgpd',
      '/sitemap.xml',
    ])
    expect(await publishPlan({ type: 'claim', id: 'claim-accuracy' })).toEqual({
      tags: ['sanity:claim'],
      paths: ['/'],
      purgePrefixes: ['/'],
    })
    expect((await publishPlan({ type: 'redirect', id: 'r' }))!.paths).toEqual([
      '/api/redirects',
      '/onibus',
      '/p/velha',
    ])
    expect(await publishPlan({ type: 'sanity.imageAsset', id: 'image-x' })).toBeUndefined()
  })

  it('documents the projection the route reads', () => {
    const row = read('docs/content.md')
      .split('\n')
      .find((line) => line.startsWith('| Projection'))
    expect(row).toContain(WEBHOOK_PROJECTION)
  })
})

it('registers the types in the order the sitemap lists them', () => {
  expect(ROUTED_TYPE_NAMES).toEqual([
    'legalPage',
    'campaignPage',
    'articleListing',
    'category',
    'article',
    'material',
  ])
})

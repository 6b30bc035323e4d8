// @vitest-environment jsdom
// jsdom only for its XML parser (the feed test); everything else is plain functions and GROQ.
import { describe, expect, it } from 'vitest'

import { queryDataset } from '@/lib/content/bundled'
import { tagForType } from '@/lib/content/tags'
import { formatArticleDate, visibleUpdateDate } from '@/lib/articles/dates'
import { rssFeed, xmlText } from '@/lib/articles/feed'
import { articleJsonLd, breadcrumbJsonLd } from '@/lib/articles/json-ld'
import { coverPlacement } from '@/lib/social-image'
import { latestArticlesWindows, liveItems } from '@/lib/articles/windows'
import { nextBoundary } from '@/lib/content/visibility'
import {
  WORDS_PER_MINUTE,
  readingMinutes,
  slugifyHeading,
  splitIntroduction,
  tableOfContents,
  wordCount,
} from '@/lib/articles/text'
import { listingPageCount } from '@/sanity/lib/paths'
import {
  REDIRECT_FROM_PATTERN,
  routedSlugProblem,
  slugProblem,
} from '@/sanity/lib/routed-type-rules'
import { redirectsForSlugChange } from '@/sanity/lib/slug-change'
import {
  ARTICLE_FEED_QUERY,
  ARTICLE_LIST_PAGE_QUERY,
  RELATED_ARTICLES_QUERY,
  ARTICLE_QUERY,
  ARTICLE_SLUGS_QUERY,
  CAMPAIGN_PAGE_QUERY,
  CATEGORY_QUERY,
  CATEGORY_SLUGS_QUERY,
} from '@/sanity/lib/queries'
import type {
  ARTICLE_FEED_QUERY_RESULT,
  ARTICLE_LIST_PAGE_QUERY_RESULT,
  RELATED_ARTICLES_QUERY_RESULT,
  ARTICLE_QUERY_RESULT,
  ARTICLE_SLUGS_QUERY_RESULT,
  CAMPAIGN_PAGE_QUERY_RESULT,
  CATEGORY_QUERY_RESULT,
  CATEGORY_SLUGS_QUERY_RESULT,
} from '@/sanity/types'

import { bundledDocuments, type Doc } from './content-support'

const NEWEST_FIRST = [
  'lgpd-camera-na-cabine',
  'protocolo-de-resposta-apos-alerta',
  'como-o-celular-detecta-fadiga',
]

/** An article and its related articles, as lib/content getArticle reads them (two queries). */
async function article(slug: string, documents = bundledDocuments()) {
  const found = await queryDataset<ARTICLE_QUERY_RESULT>(ARTICLE_QUERY, { slug }, documents)
  if (!found) return null
  const related = await queryDataset<RELATED_ARTICLES_QUERY_RESULT>(
    RELATED_ARTICLES_QUERY,
    { id: found._id, categories: (found.categories ?? []).map((category) => category._id) },
    documents,
  )
  return { ...found, related }
}

/** Page `page` of the listing at `now`, as lib/content getArticleListPage reads it. */
function listPage(page: number, now = Date.now(), documents = bundledDocuments()) {
  return queryDataset<ARTICLE_LIST_PAGE_QUERY_RESULT>(
    ARTICLE_LIST_PAGE_QUERY,
    { now: new Date(now).toISOString(), start: (page - 1) * 12, end: page * 12 },
    documents,
  )
}

/** `n` extra articles in the first bundled category, dated one day apart before the bundled ones. */
function withExtraArticles(n: number): Doc[] {
  const documents = bundledDocuments()
  const template = documents.find((doc) => doc._type === 'article')!
  for (let i = 1; i <= n; i++)
    documents.push({
      ...structuredClone(template),
      _id: `article-extra-${i}`,
      slug: { _type: 'slug', current: `extra-${i}` },
      publishedAt: new Date(Date.UTC(2026, 9, 31 - i, 12)).toISOString(),
    })
  return documents
}

describe('article queries over the bundled dataset', () => {
  it('gives an article with its author, categories, body blocks and figures from claims', async () => {
    const result = await article('protocolo-de-resposta-apos-alerta')
    expect(result?.title).toMatch(/protocolo de resposta/)
    expect(result?.author).toMatchObject({ name: 'Equipe Vigia', kind: 'team' })
    expect(result?.categories?.map((category) => category.slug)).toEqual(['fadiga-e-seguranca'])
    const types = new Set(result?.body?.map((block) => block._type))
    for (const type of ['block', 'claimFigure', 'faqBlock', 'articleCta'])
      expect(types).toContain(type)
    const figures = result?.body?.flatMap((block) =>
      block._type === 'claimFigure' ? [block.claim?.value] : [],
    )
    expect(figures).toEqual(['24/7', '90%'])
  })

  it('relates only articles that share a category, newest first, never itself', async () => {
    expect((await article('como-o-celular-detecta-fadiga'))?.related?.map((a) => a.slug)).toEqual([
      'protocolo-de-resposta-apos-alerta',
    ])
    expect((await article('lgpd-camera-na-cabine'))?.related).toEqual([])
  })

  it('answers null for an unknown slug and for a draft-only article', async () => {
    const documents = bundledDocuments()
    expect(await article('nao-existe', documents)).toBeNull()
    // parseDataset drops drafts, as the published perspective does.
    const { parseDataset } = await import('@/lib/content/bundled')
    const draft = JSON.stringify({
      ...structuredClone(documents.find((doc) => doc._type === 'article')),
      _id: 'drafts.article-rascunho',
      slug: { _type: 'slug', current: 'rascunho' },
    })
    expect(await article('rascunho', parseDataset(draft))).toBeNull()
  })

  it('lists newest first, 12 a page, reading only that page and the total', async () => {
    const first = await listPage(1)
    expect(first.total).toBe(3)
    expect(first.articles.map((a) => a.slug)).toEqual(NEWEST_FIRST)
    expect(first.categories.map((c) => c.slug)).toEqual([
      'fadiga-e-seguranca',
      'lgpd-e-privacidade',
    ])

    const documents = withExtraArticles(11)
    const [page1, page2, page3] = await Promise.all(
      [1, 2, 3].map((page) => listPage(page, Date.now(), documents)),
    )
    expect(page1?.total).toBe(14)
    expect(listingPageCount(page1!.total)).toBe(2)
    expect(page1?.articles).toHaveLength(12)
    expect(page1?.articles.slice(0, 3).map((a) => a.slug)).toEqual(NEWEST_FIRST)
    expect(page2?.articles.map((a) => a.slug)).toEqual(['extra-10', 'extra-11'])
    expect(page3?.articles).toEqual([])
  })

  it('gives a category with its articles, and every category with its newest date', async () => {
    const category = await queryDataset<CATEGORY_QUERY_RESULT>(CATEGORY_QUERY, {
      slug: 'fadiga-e-seguranca',
    })
    expect(category?.articles.map((a) => a.slug)).toEqual(NEWEST_FIRST.slice(1))
    expect(await queryDataset<CATEGORY_SLUGS_QUERY_RESULT>(CATEGORY_SLUGS_QUERY, {})).toEqual([
      { slug: 'fadiga-e-seguranca', _updatedAt: null, latest: '2026-11-17T12:00:00Z' },
      { slug: 'lgpd-e-privacidade', _updatedAt: null, latest: '2026-11-24T12:00:00Z' },
    ])
  })

  it('gives the feed the latest (20 kept once windows are judged) and the sitemap every slug with noindex', async () => {
    const documents = withExtraArticles(25)
    const feed = await queryDataset<ARTICLE_FEED_QUERY_RESULT>(ARTICLE_FEED_QUERY, {}, documents)
    expect(feed).toHaveLength(28)
    expect(feed[0]).toMatchObject({
      slug: NEWEST_FIRST[0],
      author: 'Equipe Vigia',
      categories: ['LGPD e privacidade'],
    })
    const slugs = await queryDataset<ARTICLE_SLUGS_QUERY_RESULT>(ARTICLE_SLUGS_QUERY, {})
    expect(slugs.map((s) => [s.slug, s.noindex])).toEqual(NEWEST_FIRST.map((s) => [s, false]))
  })

  it('feeds the latest-articles block, optionally from one category', async () => {
    const documents = bundledDocuments()
    const page = documents.find((doc) => doc._type === 'campaignPage') as Doc & {
      blocks: unknown[]
    }
    page.blocks.push(
      { _type: 'latestArticlesBlock', _key: 'todos', heading: 'Conteúdos', count: 2 },
      {
        _type: 'latestArticlesBlock',
        _key: 'lgpd',
        heading: 'LGPD',
        count: 3,
        category: { _type: 'reference', _ref: 'category-lgpd-e-privacidade' },
      },
    )
    const result = await queryDataset<CAMPAIGN_PAGE_QUERY_RESULT>(
      CAMPAIGN_PAGE_QUERY,
      { slug: 'onibus-rodoviarios' },
      documents,
    )
    const blocks = (result?.blocks ?? []).flatMap((block) =>
      block._type === 'latestArticlesBlock' ? [block] : [],
    )
    expect(blocks[0]?.articles?.map((a) => a.slug)).toEqual(NEWEST_FIRST)
    expect(blocks[1]?.category?.slug).toBe('lgpd-e-privacidade')
    expect(blocks[1]?.articles?.map((a) => a.slug)).toEqual(['lgpd-camera-na-cabine'])
  })
})

describe('reading time and table of contents', () => {
  const block = (text: string, style = 'normal', key = text.slice(0, 8)) => ({
    _type: 'block',
    _key: key,
    style,
    children: [{ _type: 'span', text }],
  })

  it('counts words, hyphenated and accented ones once', () => {
    expect(wordCount(['Sinais de fadiga: pós-almoço, às 14h!'])).toBe(6)
  })

  it('rounds to whole minutes at WORDS_PER_MINUTE, at least 1', () => {
    const words = (n: number) => Array.from({ length: n }, () => 'palavra').join(' ')
    expect(readingMinutes([block(words(10))])).toBe(1)
    expect(readingMinutes([block(words(WORDS_PER_MINUTE * 4))])).toBe(4)
    // FAQ answers, figures and the call to action are read too.
    expect(
      readingMinutes([
        block(words(WORDS_PER_MINUTE * 2)),
        {
          _type: 'faqBlock',
          _key: 'f',
          items: [{ question: words(WORDS_PER_MINUTE / 2), answer: words(WORDS_PER_MINUTE / 2) }],
        },
      ]),
    ).toBe(3)
  })

  it('gives each h2 a unique anchor without accents', () => {
    expect(slugifyHeading('Base legal e informação ao motorista')).toBe(
      'base-legal-e-informacao-ao-motorista',
    )
    const toc = tableOfContents([
      block('Introdução', 'normal', 'a'),
      block('Segurança dos dados', 'h2', 'b'),
      block('Um detalhe', 'h3', 'c'),
      block('Segurança dos dados', 'h2', 'd'),
      block('Contato', 'h2', 'e'),
    ])
    expect(toc).toEqual([
      { key: 'b', id: 'seguranca-dos-dados', text: 'Segurança dos dados' },
      { key: 'd', id: 'seguranca-dos-dados-2', text: 'Segurança dos dados' },
      // "contato" is the form's anchor on the site.
      { key: 'e', id: 'contato-2', text: 'Contato' },
    ])
  })

  it('splits the introduction from the sections at the first h2, and the sections at each h2', () => {
    const body = [
      block('Abertura', 'normal', 'a'),
      block('Segundo parágrafo', 'normal', 'b'),
      block('Primeira seção', 'h2', 'c'),
      block('Texto', 'normal', 'd'),
      block('Segunda seção', 'h2', 'e'),
    ]
    const { introduction, sections } = splitIntroduction(body)
    expect(introduction.map((item) => item._key)).toEqual(['a', 'b'])
    expect(sections.map((section) => section.map((item) => item._key))).toEqual([['c', 'd'], ['e']])
    // Nothing before the first h2: no introduction; no h2 at all: the whole text is one.
    expect(splitIntroduction(body.slice(2)).introduction).toEqual([])
    expect(splitIntroduction(body.slice(0, 2)).sections).toEqual([])
    expect(splitIntroduction(null)).toEqual({ introduction: [], sections: [] })
  })

  it('gives every bundled article a table of contents and a reading time', async () => {
    for (const slug of NEWEST_FIRST) {
      const result = await article(slug)
      expect(tableOfContents(result?.body).length, slug).toBeGreaterThanOrEqual(3)
      expect(readingMinutes(result?.body), slug).toBeGreaterThanOrEqual(2)
    }
  })
})

describe('dates', () => {
  it('writes dates in pt-BR in São Paulo time', () => {
    expect(formatArticleDate('2026-11-10T12:00:00Z')).toBe('10 de novembro de 2026')
    // 01:00 UTC is still the day before in São Paulo.
    expect(formatArticleDate('2026-11-11T01:00:00Z')).toBe('10 de novembro de 2026')
  })

  it('shows an update only from a later day on', () => {
    expect(visibleUpdateDate('2026-11-10T12:00:00Z', '2026-11-10T20:00:00Z')).toBeNull()
    expect(visibleUpdateDate('2026-11-10T12:00:00Z', '2026-11-12T09:00:00Z')).toBe(
      '2026-11-12T09:00:00Z',
    )
    expect(visibleUpdateDate('2026-11-10T12:00:00Z', null)).toBeNull()
  })
})

describe('structured data', () => {
  const input = {
    title: 'Título',
    description: 'Resumo',
    datePublished: '2026-11-10T12:00:00Z',
    dateModified: '2026-11-12T09:00:00Z',
    author: { name: 'Equipe Vigia', kind: 'team', role: 'Equipe' },
    categories: ['Fadiga'],
    url: 'https://site.example/conteudos/x',
    image: 'https://site.example/conteudos/x/opengraph-image',
  }
  const publisher = {
    name: 'Vigia',
    url: 'https://site.example/',
    logo: 'https://site.example/icon.svg',
  }

  it('is a BlogPosting with every field search engines ask for', () => {
    expect(articleJsonLd(input, publisher)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      mainEntityOfPage: { '@type': 'WebPage', '@id': input.url },
      url: input.url,
      headline: 'Título',
      description: 'Resumo',
      image: [input.image],
      datePublished: input.datePublished,
      dateModified: input.dateModified,
      inLanguage: 'pt-BR',
      articleSection: ['Fadiga'],
      author: { '@type': 'Organization', name: 'Equipe Vigia', url: publisher.url },
      publisher: {
        '@type': 'Organization',
        name: 'Vigia',
        url: publisher.url,
        logo: { '@type': 'ImageObject', url: publisher.logo },
      },
    })
  })

  it('presents a person as a Person with their role, never a team', () => {
    expect(
      articleJsonLd(
        { ...input, author: { name: 'Ana', kind: 'person', role: 'Editora' } },
        publisher,
      ).author,
    ).toEqual({ '@type': 'Person', name: 'Ana', jobTitle: 'Editora' })
  })

  it('numbers the breadcrumb trail with absolute URLs', () => {
    expect(
      breadcrumbJsonLd(
        [
          { name: 'Início', path: '/' },
          { name: 'Conteúdos', path: '/conteudos' },
        ],
        'https://site.example',
      ).itemListElement,
    ).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Início', item: 'https://site.example/' },
      {
        '@type': 'ListItem',
        position: 2,
        name: 'Conteúdos',
        item: 'https://site.example/conteudos',
      },
    ])
  })
})

describe('the feed', () => {
  const channel = {
    title: 'Vigia: Conteúdos',
    description: 'Artigos',
    link: 'https://site.example/conteudos',
    self: 'https://site.example/conteudos/feed.xml',
    items: [
      {
        title: 'Fadiga & <distração> "ao volante"',
        url: 'https://site.example/conteudos/a',
        description: 'Resumo\u0001 com controle',
        publishedAt: '2026-11-24T12:00:00Z',
        author: 'Equipe Vigia',
        categories: ['LGPD e privacidade'],
      },
    ],
  }

  it('escapes markup and drops characters XML forbids', () => {
    expect(xmlText(`a & b < c > "d" 'e'\u0000`)).toBe(
      'a &amp; b &lt; c &gt; &quot;d&quot; &apos;e&apos;',
    )
  })

  it('is RSS 2.0 that parses, with absolute links and RFC 822 dates', () => {
    const xml = rssFeed(channel)
    const doc = new DOMParser().parseFromString(xml, 'application/xml')
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0)
    expect(doc.documentElement.getAttribute('version')).toBe('2.0')
    const item = doc.getElementsByTagName('item')[0]!
    const text = (name: string) => item.getElementsByTagName(name)[0]?.textContent
    expect(text('title')).toBe('Fadiga & <distração> "ao volante"')
    expect(text('link')).toBe('https://site.example/conteudos/a')
    expect(text('pubDate')).toBe('Tue, 24 Nov 2026 12:00:00 GMT')
    expect(text('description')).toBe('Resumo com controle')
    expect(text('dc:creator')).toBe('Equipe Vigia')
    expect(doc.getElementsByTagName('atom:link')[0]?.getAttribute('href')).toBe(channel.self)
  })
})

describe('social card', () => {
  it('cuts a square cover to 1200 × 630 around the hotspot, within the picture', () => {
    const card = { width: 1200, height: 630 }
    expect(coverPlacement({ width: 1200, height: 1200 }, card, { x: 0.5, y: 0.5 })).toEqual({
      width: 1200,
      height: 1200,
      left: 0,
      top: -285,
    })
    expect(coverPlacement({ width: 1200, height: 1200 }, card, { x: 0.5, y: 0.05 }).top).toBe(0)
    expect(coverPlacement({ width: 1200, height: 1200 }, card, { x: 0.5, y: 0.99 }).top).toBe(-570)
    // A wide picture is cut at the sides.
    expect(coverPlacement({ width: 1600, height: 600 }, card, null)).toEqual({
      width: 1680,
      height: 630,
      left: -240,
      top: 0,
    })
  })
})

describe('publishing and addresses', () => {
  it('caches articles, categories and authors under their own tags', () => {
    expect(tagForType('article')).toBe('sanity:article')
    expect(tagForType('category')).toBe('sanity:category')
    expect(tagForType('author')).toBe('sanity:author')
  })

  // What a publish warms and purges: tests/unit/routed-types.test.ts.

  it('writes the redirect from an old article address on a slug change', () => {
    expect(redirectsForSlugChange('velho', 'novo', [], 'article')).toEqual([
      {
        createOrReplace: {
          _id: 'redirect-conteudos-velho',
          _type: 'redirect',
          from: '/conteudos/velho',
          to: '/conteudos/novo',
          permanent: true,
        },
      },
    ])
    expect(REDIRECT_FROM_PATTERN.test('/conteudos/velho')).toBe(true)
    expect(REDIRECT_FROM_PATTERN.test('/conteudos/a/b')).toBe(false)
  })

  it('keeps /conteudos and the names under it from editors', () => {
    expect(slugProblem('conteudos')).toMatch(/lista de artigos/)
    expect(routedSlugProblem('article', 'pagina')).toMatch(/páginas seguintes/)
    expect(routedSlugProblem('article', 'como-o-celular-detecta-fadiga')).toBeUndefined()
  })
})

describe('article visibility windows', () => {
  // The fair's article: live from 01/12 09:00 to 05/12 18:00 in São Paulo (UTC-3).
  const START = Date.parse('2026-12-01T12:00:00Z')
  const END = Date.parse('2026-12-05T21:00:00Z')
  const WINDOWED = 'protocolo-de-resposta-apos-alerta'

  function withWindow(): Doc[] {
    const documents = bundledDocuments()
    const doc = documents.find(
      (d) => d._type === 'article' && (d.slug as { current?: string })?.current === WINDOWED,
    )!
    Object.assign(doc, {
      visibleFrom: new Date(START).toISOString(),
      visibleUntil: new Date(END).toISOString(),
    })
    return documents
  }

  async function lists(now: number) {
    const documents = withWindow()
    const [list, category, feed, slugs, fatigue] = await Promise.all([
      listPage(1, now, documents),
      queryDataset<CATEGORY_QUERY_RESULT>(
        CATEGORY_QUERY,
        { slug: 'fadiga-e-seguranca' },
        documents,
      ),
      queryDataset<ARTICLE_FEED_QUERY_RESULT>(ARTICLE_FEED_QUERY, {}, documents),
      queryDataset<ARTICLE_SLUGS_QUERY_RESULT>(ARTICLE_SLUGS_QUERY, {}, documents),
      article('como-o-celular-detecta-fadiga', documents),
    ])
    const slugsOf = (items: readonly { slug?: string | null }[]) => items.map((i) => i.slug)
    return {
      listing: slugsOf(list.articles),
      total: list.total,
      category: slugsOf(liveItems(category?.articles ?? [], now)),
      feed: slugsOf(liveItems(feed, now)),
      sitemap: slugsOf(liveItems(slugs, now)),
      related: slugsOf(liveItems(fatigue?.related ?? [], now)),
      all: [
        [{ visibleFrom: list.nextStart, visibleUntil: list.nextEnd }],
        category?.articles ?? [],
        feed,
        slugs,
        fatigue?.related ?? [],
      ],
    }
  }

  it('carries the window (and the redirect) in every article query', async () => {
    const documents = withWindow()
    const one = await article(WINDOWED, documents)
    expect(one).toMatchObject({
      visibleFrom: new Date(START).toISOString(),
      visibleUntil: new Date(END).toISOString(),
      hiddenRedirect: null,
    })
    const slugs = await queryDataset<ARTICLE_SLUGS_QUERY_RESULT>(ARTICLE_SLUGS_QUERY, {}, documents)
    expect(slugs.find((s) => s.slug === WINDOWED)).toMatchObject({
      visibleFrom: new Date(START).toISOString(),
      hiddenRedirect: null,
    })
  })

  it('keeps an article out of every list before its start and from its end, in them inside', async () => {
    for (const now of [START - 1, END, END + 86_400_000]) {
      const out = await lists(now)
      for (const slugs of [out.listing, out.category, out.feed, out.sitemap, out.related])
        expect(slugs).not.toContain(WINDOWED)
      expect(out.total).toBe(2)
    }
    for (const now of [START, END - 1]) {
      const inside = await lists(now)
      expect(inside.listing).toEqual(NEWEST_FIRST)
      expect(inside.total).toBe(3)
      for (const slugs of [inside.category, inside.feed, inside.sitemap, inside.related])
        expect(slugs).toContain(WINDOWED)
    }
  })

  it('makes every list expire at the next start or end among its articles', async () => {
    const { all } = await lists(START - 1)
    for (const items of all) {
      expect(nextBoundary(items, START - 60_000)).toBe(START)
      expect(nextBoundary(items, START)).toBe(END)
      expect(nextBoundary(items, END)).toBeUndefined()
    }
  })

  it('gives the windows of the articles a latest-articles block may show', () => {
    const window = { visibleFrom: null, visibleUntil: new Date(END).toISOString() }
    expect(
      latestArticlesWindows([
        { _type: 'heroBlock' },
        { _type: 'latestArticlesBlock', articles: [window, {}] },
        null,
      ]),
    ).toEqual([window, {}])
    expect(
      nextBoundary(
        latestArticlesWindows([{ _type: 'latestArticlesBlock', articles: [window] }]),
        START,
      ),
    ).toBe(END)
  })
})

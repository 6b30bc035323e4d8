import { describe, expect, it } from 'vitest'

import { parseDataset, queryDataset } from '@/lib/content/bundled'
import { tagForType } from '@/lib/content/tags'
import { campaignPath } from '@/sanity/lib/paths'
import { REDIRECT_FROM_PATTERN, slugProblem } from '@/sanity/lib/routed-type-rules'
import { redirectsForSlugChange } from '@/sanity/lib/slug-change'
import {
  CAMPAIGN_PAGE_QUERY,
  CAMPAIGN_PAGE_SLUGS_QUERY,
  REDIRECT_PATHS_QUERY,
  REDIRECTS_QUERY,
} from '@/sanity/lib/queries'
import type {
  CAMPAIGN_PAGE_QUERY_RESULT,
  CAMPAIGN_PAGE_SLUGS_QUERY_RESULT,
  REDIRECT_PATHS_QUERY_RESULT,
  REDIRECTS_QUERY_RESULT,
} from '@/sanity/types'

import { BUNDLED_NDJSON, bundledDocuments } from './content-support'

const page = (slug: string, documents = bundledDocuments()) =>
  queryDataset<CAMPAIGN_PAGE_QUERY_RESULT>(CAMPAIGN_PAGE_QUERY, { slug }, documents)

describe('CAMPAIGN_PAGE_QUERY over the bundled dataset', () => {
  it('gives the example page with its SEO fields and its blocks in order', async () => {
    const result = await page('onibus-rodoviarios')
    expect(result?.title).toBe('Vigia para ônibus rodoviários e fretamento')
    expect(result?.seo?.description).toMatch(/ônibus/)
    expect(result?.seo?.noindex).toBe(false)
    expect(result?.blocks?.map((block) => block._type)).toEqual([
      'heroBlock',
      'richTextBlock',
      'stepsBlock',
      'faqBlock',
      'ctaBandBlock',
      'demoFormBlock',
    ])
  })

  it('projects every block through its fragment, references resolved', async () => {
    const blocks = (await page('onibus-rodoviarios'))?.blocks ?? []
    for (const block of blocks) expect(Object.keys(block).length, block._type).toBeGreaterThan(2)
    const hero = blocks.find((block) => block._type === 'heroBlock')
    expect(hero?._type === 'heroBlock' && hero.stats?.map((claim) => claim.value)).toEqual([
      '90%',
      '24/7',
      '100%',
    ])
    expect(hero?._type === 'heroBlock' && hero.primaryCta).toEqual({
      label: 'Solicitar Demonstração',
      href: '#contato',
    })
  })

  it("falls back to the home page's product visual when the hero has no image", async () => {
    const blocks = (await page('onibus-rodoviarios'))?.blocks ?? []
    const hero = blocks.find((block) => block._type === 'heroBlock')
    expect(hero?._type === 'heroBlock' && hero.visual?.asset?.url).toBe(
      '/images/vigia-app-alerta.png',
    )
  })

  it('resolves the images inside rich text', async () => {
    const blocks = (await page('onibus-rodoviarios'))?.blocks ?? []
    const text = blocks.find((block) => block._type === 'richTextBlock')
    const image =
      text?._type === 'richTextBlock' ? text.body?.find((b) => b._type === 'image') : null
    expect(image).toMatchObject({
      alt: expect.stringMatching(/fadiga/),
      asset: {
        url: '/images/como-funciona-fluxo.svg',
        metadata: { dimensions: { width: expect.any(Number) } },
      },
    })
  })

  it('gives null for an unknown slug and for a page that exists only as a draft', async () => {
    expect(await page('nao-existe')).toBeNull()
    const draft = JSON.stringify({
      _id: 'drafts.campaignPage-rascunho',
      _type: 'campaignPage',
      title: 'Rascunho',
      slug: { _type: 'slug', current: 'rascunho' },
    })
    // parseDataset is the published perspective of the bundled path: drafts never reach a page.
    expect(await page('rascunho', parseDataset(`${BUNDLED_NDJSON}\n${draft}\n`))).toBeNull()
  })

  it('lists the published pages for the prerender and the sitemap', async () => {
    const slugs = await queryDataset<CAMPAIGN_PAGE_SLUGS_QUERY_RESULT>(
      CAMPAIGN_PAGE_SLUGS_QUERY,
      {},
      bundledDocuments(),
    )
    expect(slugs.map((entry) => [entry.slug, entry.noindex])).toEqual([
      ['onibus-rodoviarios', false],
      // The page of the other blocks repeats the home page's sections: out of search.
      ['seguranca-de-frotas', true],
    ])
  })
})

describe('redirect queries', () => {
  it('give the example redirect, for the map the proxy answers from', async () => {
    const documents = bundledDocuments()
    expect(await queryDataset<REDIRECTS_QUERY_RESULT>(REDIRECTS_QUERY, {}, documents)).toEqual([
      { from: '/onibus', to: '/p/onibus-rodoviarios', permanent: true },
    ])
    expect(
      await queryDataset<REDIRECT_PATHS_QUERY_RESULT>(REDIRECT_PATHS_QUERY, {}, documents),
    ).toEqual(['/onibus'])
  })
})

describe('address rules', () => {
  it('accept slugs that are path segments and refuse the rest with a reason', () => {
    expect(slugProblem('onibus-rodoviarios')).toBeUndefined()
    expect(slugProblem('feira-2026')).toBeUndefined()
    for (const bad of ['Ônibus', 'a b', 'a/b', '-a', 'a-', 'a--b', 'x'.repeat(61)])
      expect(slugProblem(bad), bad).toEqual(expect.any(String))
    expect(slugProblem('studio')).toMatch(/Sanity Studio/)
    expect(slugProblem('api')).toMatch(/rotas internas/)
  })

  it('accept redirects from one root segment or an old campaign page only', () => {
    for (const ok of ['/onibus', '/p/antiga', '/feira-2026'])
      expect(REDIRECT_FROM_PATTERN.test(ok)).toBe(true)
    for (const bad of ['onibus', '/a/b', '/p/', '/P/x', '/x/', '/p/a/b'])
      expect(REDIRECT_FROM_PATTERN.test(bad), bad).toBe(false)
  })

  it('put campaign pages under /p/', () => {
    expect(campaignPath('onibus-rodoviarios')).toBe('/p/onibus-rodoviarios')
  })
})

describe('publishing', () => {
  it('revalidates the campaign page and redirect tags', () => {
    expect(tagForType('campaignPage')).toBe('sanity:campaignPage')
    expect(tagForType('redirect')).toBe('sanity:redirect')
  })

  // What a publish warms and purges: tests/unit/routed-types.test.ts.
})

describe('publishing a campaign page under a new slug', () => {
  it('adds a permanent redirect from the old address and retargets the ones that led there', () => {
    expect(
      redirectsForSlugChange('feira-2026', 'feira-2027', [
        { _id: 'redirect-feira', from: '/feira', to: '/p/feira-2026' },
        { _id: 'drafts.redirect-x', from: '/x', to: '/p/feira-2026' },
      ]),
    ).toEqual([
      { patch: { id: 'redirect-feira', set: { to: '/p/feira-2027' } } },
      {
        createOrReplace: {
          _id: 'redirect-p-feira-2026',
          _type: 'redirect',
          from: '/p/feira-2026',
          to: '/p/feira-2027',
          permanent: true,
        },
      },
    ])
  })

  it('does nothing when the slug did not change or the page was never published', () => {
    expect(redirectsForSlugChange('a', 'a', [])).toEqual([])
    expect(redirectsForSlugChange(undefined, 'a', [])).toEqual([])
  })
})

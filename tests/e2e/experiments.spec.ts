import { readFileSync } from 'node:fs'
import path from 'node:path'

import type { APIRequestContext } from '@playwright/test'

import { parseDataset } from '../../lib/content/bundled'
import { expect, test } from './fixtures'

/*
 * Serving an experiment (docs/experiments.md) on the `site` build: the bundled example runs on
 * /p/onibus-rodoviarios, two headlines 50/50. Visitors are told apart as the site tells them
 * (lib/security/client-ip.ts: the right-most X-Forwarded-For entry with one trusted hop; the
 * browser's user agent), each gets a variant from the counting's daily visitor hash, always the
 * same one, served as a prerendered page with its variant named in <meta name="vigia:variant">.
 */

const PATH = '/p/onibus-rodoviarios'
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

/** The example's two headlines, from the bundled dataset, so the test copies no marketing text. */
const headlines = (() => {
  const file = path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson')
  const documents = parseDataset(readFileSync(file, 'utf8')) as unknown as Array<{
    _id: string
    blocks?: Array<{
      _type: string
      headline?: string
      experimentVariants?: { variant: string; headline: string }[]
    }>
  }>
  const hero = documents
    .find((doc) => doc._id === 'campaignPage-onibus-rodoviarios')
    ?.blocks?.find((block) => block._type === 'heroBlock')
  const variant = hero?.experimentVariants?.find((entry) => entry.variant === 'tempo-real')
  if (!hero?.headline || !variant) throw new Error('The bundled example experiment is missing.')
  return { controle: hero.headline, 'tempo-real': variant.headline } as Record<string, string>
})()

const visitor = (i: number, userAgent = CHROME) => ({
  'user-agent': userAgent,
  'x-forwarded-for': `198.51.100.${i}`,
})

/** The variant the page names and the headline it shows, for one request. */
async function served(request: APIRequestContext, headers: Record<string, string>) {
  const response = await request.get(PATH, { headers })
  expect(response.status()).toBe(200)
  const html = await response.text()
  const meta = /<meta name="vigia:variant" content="([^"]+)"/.exec(html)?.[1]
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '')
  return { meta, h1, cache: response.headers()['x-nextjs-cache'], html }
}

test.describe('experiments: serving', () => {
  test(
    'two visitors can get the two variants, each page naming its own and showing its headline',
    { tag: '@http' },
    async ({ request }) => {
      const seen = new Map<string, number>()
      for (let i = 1; i <= 40; i++) {
        const { meta, h1 } = await served(request, visitor(i))
        const variant = meta?.split('/')[1] ?? ''
        expect(meta, `visitor ${i}`).toMatch(/^titulo-onibus\/(controle|tempo-real)$/)
        expect(h1, `visitor ${i} (${meta})`).toBe(headlines[variant])
        seen.set(variant, (seen.get(variant) ?? 0) + 1)
      }
      // 40 visitors at 50/50: both variants (each missing has a chance of 2 in a trillion).
      expect(seen.get('controle')).toBeGreaterThan(0)
      expect(seen.get('tempo-real')).toBeGreaterThan(0)
    },
  )

  test(
    'the same visitor gets the same variant every time, from the cache',
    { tag: '@http' },
    async ({ request }) => {
      for (const i of [3, 4, 5, 6]) {
        const first = await served(request, visitor(i))
        for (let again = 0; again < 3; again++) {
          const next = await served(request, visitor(i))
          expect(next.meta).toBe(first.meta)
          expect(next.h1).toBe(first.h1)
          // A prerendered page from the cache: no render for this request.
          expect(next.cache).toBe('HIT')
        }
      }
    },
  )

  test(
    'bots, prefetches and draft-mode requests get the default',
    { tag: '@http' },
    async ({ request }) => {
      for (let i = 1; i <= 12; i++) {
        expect((await served(request, visitor(i, GOOGLEBOT))).meta).toBe('titulo-onibus/controle')
        const prefetch = await request.get(PATH, {
          headers: { ...visitor(i), 'next-router-prefetch': '1', rsc: '1' },
        })
        expect(await prefetch.text()).not.toContain(headlines['tempo-real'])
      }
      // The visitors above that get the variant in a plain request still get the default here.
      const assigned = []
      for (let i = 1; i <= 12; i++)
        if ((await served(request, visitor(i))).meta === 'titulo-onibus/tempo-real')
          assigned.push(i)
      expect(assigned.length).toBeGreaterThan(0)
    },
  )

  test(
    "a variant's internal path answers 404 and the pages with no experiment name none",
    { tag: '@http' },
    async ({ request }) => {
      const direct = await request.get(`/variante/titulo-onibus/tempo-real${PATH}`, {
        headers: visitor(1),
      })
      expect(direct.status()).toBe(404)
      const home = await (await request.get('/', { headers: visitor(1) })).text()
      expect(home).not.toContain('vigia:variant')
    },
  )

  test('in a real browser, the variant page is whole: its headline, its meta, the robots and canonical of the public path, no console error', async ({
    browser,
    request,
  }) => {
    let i = 1
    while ((await served(request, visitor(i))).meta !== 'titulo-onibus/tempo-real') i++
    const context = await browser.newContext({
      userAgent: CHROME,
      extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${i}` },
    })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(PATH)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(headlines['tempo-real']!)
    await expect(page.locator('meta[name="vigia:variant"]')).toHaveAttribute(
      'content',
      'titulo-onibus/tempo-real',
    )
    // Indexable as the public path, which a crawler taken for a person must not drop.
    await expect(page.locator('meta[name="robots"][content*="noindex"]')).toHaveCount(0)
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      new RegExp(`${PATH}$`),
    )
    expect(page.url()).toMatch(new RegExp(`${PATH}$`))
    expect(errors).toEqual([])
    await context.close()
  })
})

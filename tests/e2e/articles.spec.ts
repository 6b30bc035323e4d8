import { readFileSync } from 'node:fs'
import path from 'node:path'

import type { APIRequestContext, Page } from '@playwright/test'

import { parseDataset } from '../../lib/content/bundled'
import { expectNoAxeViolations, expectWithinPageWeight, expect, test } from './fixtures'

/*
 * The bundled articles on the `site` build, at both widths: the listing (/conteudos), an article,
 * a category page, the feed and the sitemap. Publishing through the webhook, the second listing
 * page and drafts are tested against the Content Lake double (articles-publishing.spec.ts).
 */

type Span = { text?: string }
type Body = Array<{ _type: string; style?: string; children?: Span[] }>
type Doc = {
  _id: string
  _type: string
  title?: string
  name?: string
  role?: string
  description?: string
  publishedAt?: string
  slug?: { current: string }
  body?: Body
}

/** The bundled articles newest first, as the dataset holds them, so the tests copy no text. */
const bundled = (() => {
  const file = path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson')
  const documents = parseDataset(readFileSync(file, 'utf8')) as unknown as Doc[]
  const articles = documents
    .filter((doc) => doc._type === 'article')
    .sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? ''))
  const author = documents.find((doc) => doc._type === 'author')!
  return { articles, author }
})()

const DETECTION = bundled.articles.find((a) => a.slug?.current === 'como-o-celular-detecta-fadiga')!
const PROTOCOL = bundled.articles.find(
  (a) => a.slug?.current === 'protocolo-de-resposta-apos-alerta',
)!
const ARTICLE = `/conteudos/${DETECTION.slug!.current}`

const h2s = (article: Doc) =>
  (article.body ?? [])
    .filter((block) => block._type === 'block' && block.style === 'h2')
    .map((block) => (block.children ?? []).map((span) => span.text).join(''))

async function jsonLd(page: Page): Promise<Array<Record<string, unknown>>> {
  const scripts = await page.locator('script[type="application/ld+json"]').allTextContents()
  return scripts.flatMap((text) => {
    const data = JSON.parse(text) as unknown
    return (Array.isArray(data) ? data : [data]) as Array<Record<string, unknown>>
  })
}

async function scriptsOf(request: APIRequestContext, url: string): Promise<string[]> {
  const html = await (await request.get(url)).text()
  return [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!)
}

test.describe('an article', () => {
  test('renders every part: breadcrumbs, one h1, author, dates, reading time, cover, contents, text, related, demo', async ({
    page,
  }) => {
    const response = await page.goto(ARTICLE)
    expect(response?.status()).toBe(200)
    const main = page.getByRole('main')

    const trail = main.getByRole('navigation', { name: 'Trilha de navegação' })
    await expect(trail.getByRole('link')).toHaveText([
      'Início',
      'Conteúdos',
      'Fadiga e segurança na estrada',
    ])
    await expect(trail.locator('[aria-current="page"]')).toHaveText(DETECTION.title!)

    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DETECTION.title!)
    await expect(main.getByText(DETECTION.description!)).toBeVisible()

    await expect(main.getByText(bundled.author.name!, { exact: false }).first()).toBeVisible()
    await expect(main.getByText(bundled.author.role!).first()).toBeVisible()
    const published = main.locator('time[data-date="published"]')
    await expect(published).toHaveAttribute('datetime', DETECTION.publishedAt!)
    await expect(published).toHaveText('10 de novembro de 2026')
    await expect(main.getByText(/^\d+ min de leitura$/)).toBeVisible()

    // The cover: after the introduction and before the contents; preloaded with high priority
    // for wide screens only, where it is in the first screen (the text-first test says why).
    const cover = main.locator('article > img').first()
    await cover.scrollIntoViewIfNeeded()
    await expect(cover).toBeVisible()
    expect(await cover.getAttribute('alt')).toMatch(/\S/)
    await expect
      .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true)
    const order = await main
      .locator('article')
      .first()
      .evaluate((article) =>
        [...article.children].map((child) =>
          child.tagName === 'IMG' ? 'cover' : child.id === 'sumario' ? 'contents' : child.tagName,
        ),
      )
    expect(order.slice(0, 4)).toEqual(['HEADER', 'DIV', 'cover', 'contents'])
    await expect(
      page.locator('link[rel="preload"][as="image"][media="(min-width: 1024px)"]'),
    ).toHaveCount(1)

    // The table of contents lists every h2 of the text and leads to it.
    const toc = main.getByRole('navigation', { name: 'Neste artigo' })
    const sections = h2s(DETECTION)
    await expect(toc.getByRole('link')).toHaveText(sections)
    for (const link of await toc.getByRole('link').all()) {
      const target = (await link.getAttribute('href'))!.slice(1)
      await expect(page.locator(`h2[id="${target}"]`)).toHaveText(await link.innerText())
    }

    // A figure comes from its claim document.
    await expect(main.getByText('98,5%').first()).toBeVisible()

    const related = main.getByRole('region', { name: 'Leia também' })
    await expect(related.getByRole('link', { name: PROTOCOL.title! })).toHaveAttribute(
      'href',
      `/conteudos/${PROTOCOL.slug!.current}`,
    )
    for (const demo of await main.getByRole('link', { name: 'Solicitar Demonstração' }).all())
      await expect(demo).toHaveAttribute('href', '/#contato')
    await expect(main.getByRole('link', { name: 'Solicitar Demonstração' }).last()).toBeVisible()
  })

  test(
    'publishes BlogPosting and BreadcrumbList data that match the page',
    { tag: '@full' },
    async ({ page }) => {
      await page.goto(ARTICLE)
      const data = await jsonLd(page)
      const posting = data.find((item) => item['@type'] === 'BlogPosting')!
      expect(posting).toBeDefined()
      expect(posting.headline).toBe(await page.getByRole('heading', { level: 1 }).innerText())
      expect(posting.datePublished).toBe(
        await page.locator('time[data-date="published"]').getAttribute('datetime'),
      )
      // Not edited since: modified is the publication.
      expect(posting.dateModified).toBe(posting.datePublished)
      expect(posting.description).toBe(DETECTION.description)
      // The company's team signs: an Organization, never a person that does not exist.
      expect(posting.author).toMatchObject({ '@type': 'Organization', name: bundled.author.name })
      expect(posting.publisher).toMatchObject({
        '@type': 'Organization',
        name: 'Vigia',
        logo: { '@type': 'ImageObject', url: expect.stringMatching(/^https?:\/\//) },
      })
      const [image] = posting.image as string[]
      expect(image).toMatch(new RegExp(`^https?://[^/]+${ARTICLE}/opengraph-image$`))
      const og = await page.locator('meta[property="og:image"]').getAttribute('content')
      expect(new URL(og!).pathname).toBe(new URL(image!).pathname)
      expect((await page.request.get(new URL(image!).pathname)).headers()['content-type']).toBe(
        'image/png',
      )

      const trail = data.find((item) => item['@type'] === 'BreadcrumbList')!
      const visible = await page
        .getByRole('navigation', { name: 'Trilha de navegação' })
        .getByRole('listitem')
        .allInnerTexts()
      const items = trail.itemListElement as Array<{ name: string; item: string; position: number }>
      expect(items.map((item) => item.name)).toEqual(
        visible.map((text) => text.replace(/^\/\s*/, '')),
      )
      expect(items.at(-1)!.item).toMatch(new RegExp(`${ARTICLE}$`))
    },
  )

  test(
    'has its own title, description, canonical URL, feed link and social card',
    { tag: '@full' },
    async ({ page }) => {
      await page.goto(ARTICLE)
      await expect(page).toHaveTitle(`${DETECTION.title} | Vigia`)
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        'content',
        DETECTION.description!,
      )
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        new RegExp(`${ARTICLE}$`),
      )
      await expect(
        page.locator('link[rel="alternate"][type="application/rss+xml"]'),
      ).toHaveAttribute('href', /\/conteudos\/feed\.xml$/)
      // Never the site's default card.
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        new RegExp(`${ARTICLE}/opengraph-image`),
      )
      await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article')
    },
  )

  test(
    'an article without a cover gets a card generated with its title',
    { tag: '@http' },
    async ({ request }) => {
      const response = await request.get(`/conteudos/lgpd-camera-na-cabine/opengraph-image`)
      expect(response.status()).toBe(200)
      expect(response.headers()['content-type']).toBe('image/png')
      const png = await response.body()
      expect(png.readUInt32BE(16)).toBe(1200)
      expect(png.readUInt32BE(20)).toBe(630)
    },
  )

  test(
    'publishes the FAQ of an article as FAQPage data with the visible questions',
    { tag: '@full' },
    async ({ page }) => {
      await page.goto(`/conteudos/${PROTOCOL.slug!.current}`)
      const faq = (await jsonLd(page)).find((item) => item['@type'] === 'FAQPage')!
      const questions = (faq.mainEntity as Array<{ name: string }>).map((q) => q.name)
      expect(questions.length).toBeGreaterThan(0)
      for (const question of questions)
        await expect(page.getByRole('heading', { level: 3, name: question })).toBeVisible()
    },
  )

  // An image in a phone's first screen cannot paint before one more round trip after the HTML
  // (over half a second on a weak signal), while text paints with the HTML: the phone's first
  // screen is the title and the opening text, and the largest paint is text (docs/speed.md).
  for (const viewport of [
    { width: 375, height: 667 },
    { width: 412, height: 823 },
  ]) {
    test(
      `on a ${viewport.width} × ${viewport.height} phone the first screen is text, the cover below it`,
      { tag: '@full' },
      async ({ page }) => {
        await page.setViewportSize(viewport)
        await page.goto(ARTICLE)
        const cover = page.getByRole('main').locator('article > img').first()
        await expect(cover).toHaveAttribute('loading', 'lazy')
        expect(await cover.getAttribute('fetchpriority')).toBeNull()
        const top = await cover.evaluate((img) => img.getBoundingClientRect().top)
        expect(top).toBeGreaterThanOrEqual(viewport.height)

        const largestPaint = await page.evaluate(
          () =>
            new Promise<string>((resolve) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries() as Array<PerformanceEntry & { element?: Element }>
                resolve(entries.at(-1)?.element?.tagName ?? 'none')
              }).observe({ type: 'largest-contentful-paint', buffered: true })
            }),
        )
        expect(largestPaint).not.toBe('IMG')
        expect(largestPaint).not.toBe('none')
      },
    )
  }

  // The sections after the introduction are laid out when they come near the screen (issue 53,
  // docs/speed.md); a link of the table of contents lays them all out before its scroll starts
  // (components/render-all.tsx), so it still lands on its heading.
  test(
    'the sections below the first screen wait until needed, and a contents link lands on its heading',
    { tag: '@full' },
    async ({ page }) => {
      await page.setViewportSize({ width: 412, height: 823 })
      await page.goto(ARTICLE)
      const main = page.getByRole('main')
      const title = h2s(DETECTION).at(-1)!
      const heading = main.getByRole('heading', { level: 2, name: title })
      const rendered = () =>
        heading.evaluate((element) => element.checkVisibility({ contentVisibilityAuto: true }))
      expect(await rendered()).toBe(false)

      await main
        .getByRole('navigation', { name: 'Neste artigo' })
        .getByRole('link', { name: title })
        .click()
      await expect(page).toHaveURL(new RegExp(`#${await heading.getAttribute('id')}$`))
      expect(await rendered()).toBe(true)
      // Below the fixed header, at the top of the screen, once the smooth scroll has ended.
      await expect
        .poll(async () => {
          const top = await heading.evaluate((element) => element.getBoundingClientRect().top)
          await page.waitForTimeout(100)
          const again = await heading.evaluate((element) => element.getBoundingClientRect().top)
          return top === again && top > 0 && top < 200
        })
        .toBe(true)
    },
  )

  test('has no axe violations', { tag: '@full' }, async ({ page }) => {
    await page.goto(ARTICLE)
    await expectNoAxeViolations(page)
  })

  test('answers 404 for an unknown slug', { tag: '@full' }, async ({ page }) => {
    for (const unknown of ['/conteudos/artigo-que-nao-existe', '/conteudos/Maiusculas']) {
      const response = await page.goto(unknown)
      expect(response?.status(), unknown).toBe(404)
      await expect(page.getByRole('heading', { level: 1, name: '404' })).toBeVisible()
    }
  })
})

test.describe('the listing, categories, feed and sitemap', () => {
  test('lists the articles newest first, with the categories and the feed', async ({ page }) => {
    const response = await page.goto('/conteudos')
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Conteúdos')
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText(
      bundled.articles.map((article) => article.title!),
    )
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/conteudos$/)
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
      'href',
      /\/conteudos\/feed\.xml$/,
    )
    // Three articles: one page, no pagination, and no page 2.
    await expect(page.getByRole('navigation', { name: /Páginas/ })).toHaveCount(0)
    expect((await page.request.get('/conteudos/pagina/2')).status()).toBe(404)
    const first = await page.request.get('/conteudos/pagina/1', { maxRedirects: 0 })
    expect(first.status()).toBe(308)
    expect(first.headers().location).toMatch(/\/conteudos$/)
  })

  // The cards from the third on are laid out when near the screen (components/articles/
  // article-card.tsx), and render as the visitor scrolls to them.
  test(
    'the cards from the third on wait until the visitor scrolls to them, and nothing shifts',
    { tag: '@full' },
    async ({ page }) => {
      // A lazy card once widened the column on a phone until it rendered: every card rewrapped.
      await page.setViewportSize({ width: 412, height: 823 })
      await page.addInitScript(() => {
        const w = window as unknown as { __shifts: number }
        w.__shifts = 0
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>)
            w.__shifts += entry.value
        }).observe({ type: 'layout-shift', buffered: true })
      })
      await page.goto('/conteudos')
      const cards = page
        .getByRole('main')
        .getByRole('listitem')
        .filter({
          has: page.getByRole('heading', { level: 2 }),
        })
      await expect(cards).toHaveCount(bundled.articles.length)
      const lazy = await cards.evaluateAll((all) =>
        all.map((card) => getComputedStyle(card).contentVisibility),
      )
      expect(lazy).toEqual(bundled.articles.map((_, index) => (index < 2 ? 'visible' : 'auto')))
      await page.waitForLoadState('networkidle')
      expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBe(
        0,
      )
      await cards.last().scrollIntoViewIfNeeded()
      await expect(cards.last()).toBeInViewport()
      expect(
        await cards
          .last()
          .getByRole('heading', { level: 2 })
          .evaluate((heading) => heading.checkVisibility({ contentVisibilityAuto: true })),
      ).toBe(true)
    },
  )

  test('the listing has no axe violations', { tag: '@full' }, async ({ page }) => {
    await page.goto('/conteudos')
    await expectNoAxeViolations(page)
  })

  test('a category lists its own articles only', { tag: '@full' }, async ({ page }) => {
    await page.goto('/conteudos')
    await page
      .getByRole('navigation', { name: 'Categorias' })
      .getByRole('link', { name: 'Fadiga e segurança na estrada' })
      .click()
    await expect(page).toHaveURL(/\/conteudos\/categoria\/fadiga-e-seguranca$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Fadiga e segurança na estrada',
    )
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
      PROTOCOL.title!,
      DETECTION.title!,
    ])
    await expectNoAxeViolations(page)
    expect((await page.request.get('/conteudos/categoria/nao-existe')).status()).toBe(404)
  })

  test(
    'the feed is RSS 2.0 that parses, with the articles newest first and absolute links',
    { tag: '@full' },
    async ({ page }) => {
      const response = await page.request.get('/conteudos/feed.xml')
      expect(response.status()).toBe(200)
      expect(response.headers()['content-type']).toMatch(/^application\/rss\+xml/)
      const xml = await response.text()
      await page.goto('/conteudos')
      const feed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'application/xml')
        const items = [...doc.querySelectorAll('item')]
        return {
          errors: doc.getElementsByTagName('parsererror').length,
          version: doc.documentElement.getAttribute('version'),
          channelLink: doc.querySelector('channel > link')?.textContent,
          items: items.map((item) => ({
            title: item.querySelector('title')?.textContent,
            link: item.querySelector('link')?.textContent,
            date: item.querySelector('pubDate')?.textContent,
          })),
        }
      }, xml)
      expect(feed.errors).toBe(0)
      expect(feed.version).toBe('2.0')
      expect(feed.channelLink).toMatch(/^https?:\/\/[^/]+\/conteudos$/)
      expect(feed.items.map((item) => item.title)).toEqual(bundled.articles.map((a) => a.title))
      for (const item of feed.items) {
        expect(item.link).toMatch(/^https?:\/\/[^/]+\/conteudos\/[a-z0-9-]+$/)
        expect(Number.isNaN(Date.parse(item.date!))).toBe(false)
      }
    },
  )

  test(
    'the sitemap has the listing, the categories and every article with lastmod',
    { tag: '@http' },
    async ({ request }) => {
      const xml = await (await request.get('/sitemap.xml')).text()
      for (const path of [
        '/conteudos',
        '/conteudos/categoria/fadiga-e-seguranca',
        '/conteudos/categoria/lgpd-e-privacidade',
        ...bundled.articles.map((a) => `/conteudos/${a.slug!.current}`),
      ])
        expect(xml).toMatch(new RegExp(`${path}</loc>\\s*<lastmod>[^<]+</lastmod>`))
    },
  )
})

test.describe('as light as the home page', () => {
  for (const [name, url] of [
    ['an article', ARTICLE],
    ['the listing', '/conteudos'],
  ] as const) {
    test(
      `${name} stays within the page-weight budgets of the home page`,
      { tag: '@http' },
      async ({ request }) => {
        expectWithinPageWeight(await (await request.get(url)).text(), 120)
      },
    )

    test(
      `${name} ships no JavaScript of its own (no more than a legal page, less than the home)`,
      { tag: '@http' },
      async ({ request }) => {
        const size = async (src: string) => (await (await request.get(src)).body()).length
        const legal = new Set(await scriptsOf(request, '/privacidade'))
        const scripts = await scriptsOf(request, url)
        let extraBytes = 0
        for (const src of scripts.filter((src) => !legal.has(src))) extraBytes += await size(src)
        // At most the route's own tiny chunk (Next's per-route module list), never components.
        expect(extraBytes, scripts.join('\n')).toBeLessThan(1_000)
        let homeBytes = 0
        for (const src of await scriptsOf(request, '/')) homeBytes += await size(src)
        let bytes = 0
        for (const src of scripts) bytes += await size(src)
        expect(bytes).toBeLessThanOrEqual(homeBytes)
      },
    )
  }
})

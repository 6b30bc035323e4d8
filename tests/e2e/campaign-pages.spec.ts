import { readFileSync } from 'node:fs'
import path from 'node:path'

import type { APIRequestContext } from '@playwright/test'

import { parseDataset } from '../../lib/content/bundled'
import {
  expectNoAxeViolations,
  expectWithinPageWeight,
  expect,
  scrollToSection,
  test,
} from './fixtures'

/*
 * The bundled example campaign page (/p/onibus-rodoviarios, a campaignPage document built from
 * blocks) and the bundled redirect (/onibus), on the `site` build at both widths. Publishing a new
 * page through the webhook is tested against the Content Lake double (campaign-publishing.spec.ts);
 * its form's stored lead in demo-request-store.spec.ts.
 */

const PATH = '/p/onibus-rodoviarios'

type Span = { text?: string }
type Block = { _type: string; _key: string; [field: string]: unknown }
type Page = { title: string; seo: { description: string }; blocks: Block[] }

/** The example page as the bundled dataset holds it, so the tests copy no marketing text. */
const example = (() => {
  const file = path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson')
  const documents = parseDataset(readFileSync(file, 'utf8'))
  const page = documents.find((doc) => doc._id === 'campaignPage-onibus-rodoviarios') as unknown as
    Page | undefined
  if (!page) throw new Error('The bundled dataset has no example campaign page.')
  const block = (type: string) => {
    const found = page.blocks.find((candidate) => candidate._type === type)
    if (!found) throw new Error(`The example page has no ${type}.`)
    return found as Record<string, unknown>
  }
  return { page, block, documents }
})()

async function scriptsOf(request: APIRequestContext, url: string): Promise<string[]> {
  const html = await (await request.get(url)).text()
  return [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!)
}

test.describe('the example campaign page', () => {
  test(
    'answers 200 with its own title, description, canonical URL and social image',
    { tag: '@full' },
    async ({ page }) => {
      const response = await page.goto(PATH)
      expect(response?.status()).toBe(200)
      await expect(page).toHaveTitle(`${example.page.title} | Vigia`)
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        'content',
        example.page.seo.description,
      )
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        new RegExp(`${PATH}$`),
      )
      // No image of its own: the site's social card.
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        /\/opengraph-image$/,
      )
      await expect(page.locator('meta[name="robots"]')).toHaveCount(0)
    },
  )

  test('renders every block with its copy, in the editor’s order', async ({ page }) => {
    await page.goto(PATH)
    const main = page.getByRole('main')

    const hero = example.block('heroBlock')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.headline as string)
    await expect(main.getByText(hero.description as string)).toBeVisible()
    for (const cta of [hero.primaryCta, hero.secondaryCta] as Array<{
      label: string
      href: string
    }>)
      await expect(main.getByRole('link', { name: cta.label }).first()).toHaveAttribute(
        'href',
        cta.href,
      )
    // The figures are the claim documents the home page shows.
    for (const figure of ['90%', '24/7', '100%'])
      await expect(main.locator('dl').first().getByText(figure, { exact: true })).toBeVisible()
    await expect(main.getByRole('img', { name: /app Vigia/ })).toHaveCount(1)

    const text = example.block('richTextBlock')
    await expect(
      main.getByRole('heading', { level: 2, name: text.heading as string }),
    ).toBeVisible()
    const bullets = (text.body as Array<{ listItem?: string; children?: Span[] }>).filter(
      (item) => item.listItem === 'bullet',
    )
    expect(bullets.length).toBeGreaterThan(0)
    for (const item of bullets)
      await expect(
        main.getByRole('listitem').filter({ hasText: item.children![0]!.text! }),
      ).toHaveCount(1)
    await expect(main.getByRole('img', { name: /risco de fadiga/ })).toHaveCount(1)

    const steps = example.block('stepsBlock')
    await expect(
      main.getByRole('heading', { level: 2, name: steps.heading as string }),
    ).toBeVisible()
    for (const [index, step] of (steps.steps as Array<{ title: string }>).entries())
      await expect(
        main.getByRole('heading', { level: 3, name: `Etapa ${index + 1}: ${step.title}` }),
      ).toBeVisible()

    const faq = example.block('faqBlock')
    for (const item of faq.items as Array<{ question: string; answer: string }>) {
      await expect(main.getByRole('heading', { level: 3, name: item.question })).toBeVisible()
      await expect(main.getByText(item.answer, { exact: true })).toBeVisible()
    }

    const band = example.block('ctaBandBlock')
    await expect(
      main.getByRole('heading', { level: 2, name: band.heading as string }),
    ).toBeVisible()
    await expect(main.getByText(band.text as string)).toBeVisible()

    const form = example.block('demoFormBlock')
    const contact = page.locator('section#contato')
    await expect(contact.getByRole('heading', { level: 2 })).toHaveText(form.heading as string)
    await scrollToSection(page, 'contato')
    await expect(contact.getByRole('form', { name: form.formTitle as string })).toBeVisible()
    for (const offer of form.offers as string[])
      await expect(contact.getByText(offer)).toBeVisible()

    // One section per block, in order.
    const headings = await main
      .locator('section')
      .evaluateAll((sections) =>
        sections.map((section) => section.querySelector('h1, h2')?.textContent ?? ''),
      )
    expect(headings).toEqual([
      hero.headline,
      text.heading,
      steps.heading,
      faq.heading,
      band.heading,
      form.heading,
    ])
  })

  test(
    'publishes FAQPage structured data that matches the visible questions',
    { tag: '@full' },
    async ({ page }) => {
      await page.goto(PATH)
      const scripts = await page.locator('script[type="application/ld+json"]').allTextContents()
      const faqs = scripts
        .map((text) => JSON.parse(text))
        .filter((data) => data['@type'] === 'FAQPage')
      expect(faqs).toHaveLength(1)
      const faq = page.locator('section').filter({
        has: page.getByRole('heading', {
          level: 2,
          name: example.block('faqBlock').heading as string,
        }),
      })
      const visible = await faq.getByRole('heading', { level: 3 }).evaluateAll((questions) =>
        questions.map((question) => ({
          '@type': 'Question',
          name: question.textContent,
          acceptedAnswer: { '@type': 'Answer', text: question.nextElementSibling?.textContent },
        })),
      )
      expect(visible.length).toBe((example.block('faqBlock').items as unknown[]).length)
      expect(faqs[0].mainEntity).toEqual(visible)
    },
  )

  test(
    "the header's call to action and the hero's button lead to this page's form",
    { tag: '@full' },
    async ({ page }) => {
      await page.goto(PATH)
      await expect(
        page.getByRole('banner').getByRole('link', { name: /solicitar demo/i }),
      ).toHaveAttribute('href', '#contato')
      await page
        .getByRole('main')
        .getByRole('link', { name: 'Solicitar Demonstração' })
        .first()
        .click()
      await expect(page).toHaveURL(new RegExp(`${PATH}#contato$`))
      await expect(page.locator('section#contato')).toBeInViewport()
    },
  )

  test('has no axe violations', { tag: '@full' }, async ({ page }) => {
    await page.goto(PATH)
    await expectNoAxeViolations(page)
  })

  test(
    'stays within the page-weight budgets of the home page',
    { tag: '@http' },
    async ({ request }) => {
      expectWithinPageWeight(await (await request.get(PATH)).text(), 150)
    },
  )

  test(
    'ships no more JavaScript than the home page, and not the mobile menu',
    { tag: '@http' },
    async ({ request }) => {
      const size = async (src: string) => (await (await request.get(src)).body()).length
      let homeBytes = 0
      for (const src of await scriptsOf(request, '/')) homeBytes += await size(src)
      let bytes = 0
      for (const src of await scriptsOf(request, PATH)) {
        bytes += await size(src)
        const code = await (await request.get(src)).text()
        expect(code.includes('aria-expanded'), `${src}: the mobile menu's code`).toBe(false)
      }
      expect(bytes).toBeLessThanOrEqual(homeBytes)
    },
  )

  test('is in the sitemap', { tag: '@http' }, async ({ request }) => {
    const xml = await (await request.get('/sitemap.xml')).text()
    expect(xml).toContain(`${PATH}</loc>`)
  })
})

/*
 * The second bundled page holds the blocks the first does not (the card grid, the benefits, the
 * latest articles, the calculator): every block has a sample (tests/unit/block-registry.test.ts).
 * It repeats the home page's sections, so it stays out of search.
 */
test.describe('the example page of the other blocks', { tag: '@full' }, () => {
  const OTHER = '/p/seguranca-de-frotas'
  const other = example.documents.find((doc) => doc._id === 'campaignPage-seguranca-de-frotas') as
    (Record<string, unknown> & { blocks: Block[] }) | undefined
  const block = (type: string) => {
    const found = other?.blocks.find((candidate) => candidate._type === type)
    if (!found) throw new Error(`The second example page has no ${type}.`)
    return found as Record<string, unknown>
  }

  test('renders each block with its copy, in order, and asks search engines to skip it', async ({
    page,
  }) => {
    const response = await page.goto(OTHER)
    expect(response?.status()).toBe(200)
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
    const main = page.getByRole('main')

    const cards = block('cardGridBlock')
    for (const card of cards.cards as Array<{ title: string }>)
      await expect(
        main.getByRole('heading', { level: 3, name: card.title, exact: true }),
      ).toBeVisible()
    // The panel's figures are claim documents, as on the home page.
    await expect(main.getByText('98,5%', { exact: true })).toBeVisible()

    const benefits = block('benefitsBlock')
    for (const card of benefits.cards as Array<{ title: string }>)
      await expect(
        main.getByRole('heading', { level: 3, name: card.title, exact: true }),
      ).toBeVisible()
    // A market's name shares its line with its badge ("Fase futura").
    for (const market of benefits.markets as Array<{ name: string }>)
      await expect(main.getByText(market.name).first()).toBeVisible()

    // The newest of its category, as many as it asks for and the bundle holds.
    const articles = block('latestArticlesBlock')
    const category = (articles.category as { _ref: string })._ref
    const inCategory = example.documents.filter(
      (doc) => doc._type === 'article' && JSON.stringify(doc.categories).includes(category),
    ).length
    const listing = page.locator('section').filter({
      has: page.getByRole('heading', { level: 2, name: articles.heading as string }),
    })
    await expect(listing.getByRole('heading', { level: 3 })).toHaveCount(
      Math.min(articles.count as number, inCategory),
    )
    await expect(listing.getByRole('link', { name: /^Ver todos em / })).toHaveAttribute(
      'href',
      '/conteudos/categoria/fadiga-e-seguranca',
    )

    // The calculator, working without JavaScript: a form to /calculadora (there once near).
    await scrollToSection(page, `bloco-${block('roiCalculatorBlock')._key as string}`)
    await expect(
      main.locator('form[aria-label="Calculadora de economia"][action="/calculadora"]'),
    ).toHaveCount(1)

    // One section per block, in order.
    const headings = await main
      .locator('section')
      .evaluateAll((sections) =>
        sections.map((section) => section.querySelector('h1, h2')?.textContent ?? ''),
      )
    // A featured material is headed by the material's own title.
    const titleOf = (ref: string) =>
      example.documents.find((doc) => doc._id === ref)?.title as string | undefined
    expect(headings).toEqual(
      other!.blocks.map(
        (item) =>
          (item.headline ??
            item.heading ??
            titleOf((item.material as { _ref: string } | undefined)?._ref ?? '')) as string,
      ),
    )
  })

  test('has no axe violations', async ({ page }) => {
    await page.goto(OTHER)
    await expectNoAxeViolations(page)
  })
})

test.describe('redirects and unknown pages', () => {
  test(
    'the bundled redirect answers 308 to the example page',
    { tag: '@full' },
    async ({ request, page }) => {
      const response = await request.get('/onibus', { maxRedirects: 0 })
      expect(response.status()).toBe(308)
      // Answered by proxy.ts from the redirect map, before any page or cache: one Location.
      const locations = response
        .headersArray()
        .filter((header) => header.name.toLowerCase() === 'location')
        .map((header) => new URL(header.value, 'http://x').pathname)
      expect(locations).toEqual([PATH])
      await page.goto('/onibus')
      await expect(page).toHaveURL(new RegExp(`${PATH}$`))
    },
  )

  for (const unknown of ['/p/pagina-que-nao-existe', '/p/Onibus', '/campanha-inexistente']) {
    test(`${unknown} answers 404 with the not-found page`, { tag: '@full' }, async ({ page }) => {
      const response = await page.goto(unknown)
      expect(response?.status()).toBe(404)
      await expect(page.getByRole('heading', { level: 1, name: '404' })).toBeVisible()
    })
  }

  test(
    'the preview route leads visitors (no draft mode) to the public page',
    { tag: '@http' },
    async ({ request }) => {
      const response = await request.get(`/preview${PATH}`, { maxRedirects: 0 })
      expect(response.status()).toBe(307)
      expect(new URL(response.headers().location!, 'http://x').pathname).toBe(PATH)
    },
  )
})

import { createHash, createHmac, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

import { expectNoAxeViolations } from './fixtures'
import {
  campaignPage,
  deliverWebhook as deliver,
  LIFECYCLE_WINDOW_MS,
  mutateLake as mutate,
  publishDeadline,
  publishWebhook as publish,
  reachedBy,
  resetLake,
  type PublishDeadline,
} from './lake-fixtures'
import { SERVERS } from './servers'

/*
 * The life of a campaign around its pages (docs/campaigns.md), against the lake build and its
 * Content Lake double: pages with a visibility window go live and away by themselves (no webhook
 * at the boundary), the announcement bar, and review links. Runs in the Playwright project
 * "lake", one spec of that build at a time, once and in order.
 *
 * A window is written only once the checks before it have passed, relative to that moment, and
 * the checks inside it are bounded by the publish's deadline (5 s from the webhook,
 * lake-fixtures.ts), shorter than the window: a window cannot run out before its checks do,
 * however loaded the machine.
 */

const SITE = SERVERS.lake.url
const LAKE = SERVERS.lakeDouble.url
const RUN = Date.now().toString(36)

async function lakeQuery<T>(request: APIRequestContext, query: string): Promise<T> {
  const response = await request.get(
    `${LAKE}/v2025-09-01/data/query/production?query=${encodeURIComponent(query)}`,
  )
  expect(response.ok()).toBe(true)
  return ((await response.json()) as { result: T }).result
}

const get = (request: APIRequestContext, path: string) =>
  request.get(`${SITE}${path}`, { maxRedirects: 0 })

const html = async (request: APIRequestContext, path: string) =>
  (await (await get(request, path)).text()) as string

/** The bar in a page's HTML (its class name is in the inlined CSS of every page). */
const BAR = 'aria-label="Aviso"'

/** Every kind of page the announcement bar is on. */
const EVERY_KIND = [
  '/',
  '/privacidade',
  '/p/onibus-rodoviarios',
  '/conteudos',
  '/conteudos/como-o-celular-detecta-fadiga',
  '/conteudos/categoria/fadiga-e-seguranca',
]

/** `check` holds on every kind of page by the deadline (each page polled at the same time). */
const onEveryKind = (
  what: string,
  deadline: PublishDeadline,
  check: (path: string) => Promise<boolean>,
) =>
  Promise.all(EVERY_KIND.map((path) => reachedBy(deadline, () => check(path), `${what}: ${path}`)))

const sitemap = async (request: APIRequestContext) =>
  (await (await request.get(`${SITE}/sitemap.xml`)).text()) as string

/** Waits until `at` (ms since the epoch) plus `extraMs`. */
async function waitUntil(at: number, extraMs = 0) {
  const wait = at + extraMs - Date.now()
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
}

function article(slug: string, title: string, extra: Record<string, unknown> = {}) {
  return {
    _id: `article-${slug}`,
    _type: 'article',
    title,
    slug: { _type: 'slug', current: slug },
    description:
      'Artigo de teste do período no ar: entra e sai da lista, do feed e do mapa do site sozinho.',
    categories: [{ _type: 'reference', _ref: 'category-fadiga-e-seguranca', _key: 'c' }],
    author: { _type: 'reference', _ref: 'author-equipe-vigia' },
    publishedAt: new Date().toISOString(),
    body: [
      {
        _type: 'block',
        _key: 'p1',
        style: 'normal',
        markDefs: [],
        children: [{ _type: 'span', _key: 's1', text: 'Texto do artigo de teste.', marks: [] }],
      },
    ],
    ...extra,
  }
}

test.describe('campaign lifecycle', () => {
  test.describe.configure({ mode: 'serial' })

  test.beforeAll(async ({ request }) => {
    await resetLake(request)
  })

  test('a page given an end is served until it, then gone with no webhook', async ({ request }) => {
    test.setTimeout(90_000)
    const slug = `fim-e2e-${RUN}`
    const headline = 'Oferta de lançamento até hoje'
    await mutate(request, { createOrReplace: campaignPage(slug, headline) })
    const first = await deliver(request, {
      _type: 'campaignPage',
      _id: `campaignPage-${slug}`,
      slug,
    })
    await reachedBy(first.deadline, async () => {
      const response = await get(request, `/p/${slug}`)
      return response.status() === 200 && (await response.text()).includes(headline)
    })
    await reachedBy(first.deadline, async () =>
      (await sitemap(request)).includes(`/p/${slug}</loc>`),
    )

    // Only now the end, a window (10 s) from now: the check inside is bounded by the publish's 5 s.
    const end = Date.now() + LIFECYCLE_WINDOW_MS
    await mutate(request, {
      patch: { id: `campaignPage-${slug}`, set: { visibleUntil: new Date(end).toISOString() } },
    })
    const ended = await deliver(request, {
      _type: 'campaignPage',
      _id: `campaignPage-${slug}`,
      slug,
    })
    await reachedBy(ended.deadline, async () => (await get(request, `/p/${slug}`)).status() === 200)
    expect(Date.now()).toBeLessThan(end)

    // No webhook from here on. The cached page expires at its end (rounded up to the second), so
    // the first request after it already gets the 404, not the old page.
    await waitUntil(end, 1_500)
    expect((await get(request, `/p/${slug}`)).status()).toBe(404)
    expect(await sitemap(request)).not.toContain(`/p/${slug}</loc>`)
  })

  test('an article given an end is served and listed until it, then 404 and out of every list with no webhook', async ({
    request,
  }) => {
    test.setTimeout(90_000)
    const slug = `artigo-fim-e2e-${RUN}`
    const path = `/conteudos/${slug}`
    const title = 'Checklist da feira de transporte para gestores de frota'
    const lists = ['/conteudos', '/conteudos/categoria/fadiga-e-seguranca', '/conteudos/feed.xml']
    await mutate(request, { createOrReplace: article(slug, title) })
    const first = await deliver(request, { _type: 'article', _id: `article-${slug}`, slug })

    const inList = async (listPath: string) =>
      (await (await get(request, listPath)).text()).includes(path)
    await reachedBy(first.deadline, async () => {
      const response = await get(request, path)
      return response.status() === 200 && (await response.text()).includes(title)
    })
    for (const listPath of lists) await reachedBy(first.deadline, () => inList(listPath), listPath)
    await reachedBy(first.deadline, async () => (await sitemap(request)).includes(`${path}</loc>`))

    // Only now the end, a window (10 s) from now: the checks inside are bounded by the publish's 5 s.
    const end = Date.now() + LIFECYCLE_WINDOW_MS
    await mutate(request, {
      patch: { id: `article-${slug}`, set: { visibleUntil: new Date(end).toISOString() } },
    })
    const ended = await deliver(request, { _type: 'article', _id: `article-${slug}`, slug })
    await reachedBy(ended.deadline, async () => (await get(request, path)).status() === 200)
    expect(Date.now()).toBeLessThan(end)

    // No webhook from here on: the article and every list that had it expire at its end.
    await waitUntil(end, 1_500)
    expect((await get(request, path)).status()).toBe(404)
    for (const listPath of lists) expect(await inList(listPath), listPath).toBe(false)
    expect(await sitemap(request)).not.toContain(`${path}</loc>`)
  })

  test('a page with a future start is 404 (or goes to the chosen page), then live by itself', async ({
    request,
  }) => {
    test.setTimeout(90_000)
    const plain = `inicio-e2e-${RUN}`
    const redirected = `inicio-redir-e2e-${RUN}`
    // Nothing to check before the window is written; those inside it are bounded by the
    // publish's 5 s, well inside LIFECYCLE_WINDOW_MS (10 s).
    const start = Date.now() + LIFECYCLE_WINDOW_MS
    const visibleFrom = new Date(start).toISOString()
    await mutate(
      request,
      { createOrReplace: campaignPage(plain, 'Feira de transporte: estamos lá', { visibleFrom }) },
      {
        createOrReplace: campaignPage(redirected, 'Feira: agenda de demonstrações', {
          visibleFrom,
          hiddenRedirect: '/',
        }),
      },
    )
    const { deadline } = await deliver(request, {
      _type: 'campaignPage',
      _id: `campaignPage-${plain}`,
      slug: plain,
    })

    await reachedBy(deadline, async () => (await get(request, `/p/${redirected}`)).status() === 307)
    expect((await get(request, `/p/${redirected}`)).headers()['location']).toMatch(/\/$/)
    expect((await get(request, `/p/${plain}`)).status()).toBe(404)
    expect(await sitemap(request)).not.toContain(`/p/${plain}</loc>`)
    expect(Date.now()).toBeLessThan(start)

    await waitUntil(start, 1_500)
    const live = await get(request, `/p/${plain}`)
    expect(live.status()).toBe(200)
    expect(await live.text()).toContain('Feira de transporte: estamos lá')
    expect((await get(request, `/p/${redirected}`)).status()).toBe(200)
    expect(await sitemap(request)).toContain(`/p/${plain}</loc>`)
  })

  test('the announcement shows above the header, stays closed once closed, is back with a new revision, and ends by itself', async ({
    page,
    request,
    context,
  }) => {
    test.setTimeout(120_000)
    const text = `Estamos na feira de transporte: venha ver a Vigia (${RUN})`
    const announcement = {
      _id: 'announcement',
      _type: 'announcement',
      text,
      tone: 'destaque',
      link: { _type: 'link', label: 'Saiba mais', href: '/p/onibus-rodoviarios' },
    }
    await mutate(request, { createOrReplace: announcement })
    const { deadline } = await deliver(request, { _type: 'announcement', _id: 'announcement' })

    // Live within 5 s of the webhook on every kind of page: home, legal and campaign pages,
    // articles and their listing and category pages.
    await onEveryKind('published', deadline, async (path) =>
      (await html(request, path)).includes(text),
    )

    await page.goto(`${SITE}/privacidade`)
    const bar = page.getByRole('complementary', { name: 'Aviso' })
    await expect(bar).toBeVisible()
    await expect(bar).toContainText(text)
    await expect(bar.getByRole('link', { name: 'Saiba mais' })).toHaveAttribute(
      'href',
      '/p/onibus-rodoviarios',
    )
    // Above the header, which sits right below it.
    const barBox = (await bar.boundingBox())!
    const headerBox = (await page.locator('header').first().boundingBox())!
    expect(barBox.y).toBe(0)
    expect(headerBox.y).toBeCloseTo(barBox.height, 0)

    await bar.getByRole('button', { name: 'Fechar aviso' }).click()
    await expect(bar).toBeHidden()
    expect((await page.locator('header').first().boundingBox())!.y).toBe(0)
    // Closed on every page from now on, hidden before the first paint: never seen, no shift.
    await page.goto(`${SITE}/`)
    await expect(page.getByRole('complementary', { name: 'Aviso' })).toBeHidden()
    expect((await page.locator('header').first().boundingBox())!.y).toBe(0)
    expect(await context.cookies()).toEqual([])

    // On an article page too, above the header.
    await page.goto(`${SITE}/conteudos/como-o-celular-detecta-fadiga`)
    await page.evaluate(() => localStorage.clear())
    await page.reload()
    const articleBar = page.getByRole('complementary', { name: 'Aviso' })
    await expect(articleBar).toContainText(text)
    expect((await articleBar.boundingBox())!.y).toBe(0)
    await articleBar.getByRole('button', { name: 'Fechar aviso' }).click()
    await page.goto(`${SITE}/`)
    await expect(page.getByRole('complementary', { name: 'Aviso' })).toBeHidden()

    // The editor changes the announcement (the Content Lake gives it a new _rev): the visitor who
    // closed the old one sees the new one (docs/campaigns.md).
    await mutate(request, {
      patch: { id: 'announcement', set: { 'link.label': 'Ver a agenda' } },
    })
    const changed = await deliver(request, { _type: 'announcement', _id: 'announcement' })
    await reachedBy(changed.deadline, async () =>
      (await html(request, '/')).includes('Ver a agenda'),
    )
    await page.goto(`${SITE}/`)
    const again = page.getByRole('complementary', { name: 'Aviso' })
    await expect(again).toBeVisible()
    await expect(again.getByRole('link', { name: 'Ver a agenda' })).toBeVisible()

    // Only now its end, a window (10 s) from now: the check inside is bounded by the publish's 5 s.
    const end = Date.now() + LIFECYCLE_WINDOW_MS
    await mutate(request, {
      patch: { id: 'announcement', set: { visibleUntil: new Date(end).toISOString() } },
    })
    const ending = await deliver(request, { _type: 'announcement', _id: 'announcement' })
    await reachedBy(ending.deadline, async () => (await html(request, '/')).includes(text))
    expect(Date.now()).toBeLessThan(end)

    // No webhook at the end: every page drops the bar by itself, its cache expiring at the end
    // like a page's (within the same 5 s as a publish).
    await waitUntil(end)
    await onEveryKind(
      'ended',
      publishDeadline(end),
      async (path) => !(await html(request, path)).includes(text),
    )
  })

  test('the announcement starts by itself with no webhook, and unpublishing it takes it off every page within 5 s', async ({
    request,
  }) => {
    test.setTimeout(90_000)
    // This run's own text: no page cached by an earlier run can hold it.
    const text = `Amanhã: demonstrações ao vivo na feira de transporte (${RUN})`
    // Written now, relative to now: the publish and the checks before the start take its 5 s.
    const start = Date.now() + LIFECYCLE_WINDOW_MS
    await mutate(request, {
      createOrReplace: {
        _id: 'announcement',
        _type: 'announcement',
        text,
        tone: 'informativo',
        visibleFrom: new Date(start).toISOString(),
      },
    })
    const { deadline } = await deliver(request, { _type: 'announcement', _id: 'announcement' })
    // Every page regenerated by then (the webhook has them all rendered again): still no bar.
    await waitUntil(deadline.at)
    for (const path of EVERY_KIND)
      expect(await html(request, path), `${path} before the start`).not.toContain(text)
    expect(Date.now(), 'the checks before the start ran before it').toBeLessThan(start)

    // No webhook at the start: every page shows the bar within 5 s of it.
    await waitUntil(start)
    await onEveryKind('started', publishDeadline(start), async (path) =>
      (await html(request, path)).includes(text),
    )

    // Unpublished (deleted) in the Studio: off every page within 5 s of the webhook.
    await mutate(request, { delete: { id: 'announcement' } })
    const removed = await deliver(request, { _type: 'announcement', _id: 'announcement' })
    await onEveryKind(
      'unpublished',
      removed.deadline,
      async (path) => !(await html(request, path)).includes(BAR),
    )
  })

  test('an announcement longer than the Studio allows (90 characters), written through the API, keeps the bar at its height: clamped, never over the header', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000)
    // The Studio refuses more than 90 characters (tests/unit/dataset-validation.test.ts), but the
    // API takes anything: 180 characters here.
    const text =
      'Na feira de transporte deste ano a equipe da Vigia mostra ao vivo a detecção de fadiga, ' +
      'sonolência e distração no celular do motorista, com alertas na cabine e relatórios da frota'
    expect(text.length).toBeGreaterThan(90)
    await mutate(request, {
      createOrReplace: { _id: 'announcement', _type: 'announcement', text, tone: 'informativo' },
    })
    const { deadline } = await deliver(request, { _type: 'announcement', _id: 'announcement' })
    await reachedBy(deadline, async () => (await html(request, '/privacidade')).includes(text))

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(`${SITE}/privacidade`)
      const bar = page.getByRole('complementary', { name: 'Aviso' })
      await expect(bar).toBeVisible()
      // The whole text is there for assistive technology, shown on at most two lines.
      await expect(bar).toContainText(text)
      const box = (await bar.boundingBox())!
      const header = (await page.locator('header').first().boundingBox())!
      // The bar keeps its fixed height (3.5rem below md, 2.5rem from it), the header right below.
      expect(box.height, `${width}px`).toBe(width < 768 ? 56 : 40)
      expect(header.y, `${width}px`).toBeCloseTo(box.height, 0)
      // The paragraph is clamped inside the bar: what does not fit is cut, not spilled.
      const paragraph = bar.locator('p')
      const { clipped, bottom } = await paragraph.evaluate((el) => ({
        clipped: el.scrollHeight > el.clientHeight,
        bottom: el.getBoundingClientRect().bottom,
      }))
      expect(clipped, `${width}px: the text is clamped`).toBe(true)
      expect(bottom, `${width}px`).toBeLessThanOrEqual(box.y + box.height)
    }

    await mutate(request, { delete: { id: 'announcement' } })
    const removed = await deliver(request, { _type: 'announcement', _id: 'announcement' })
    await reachedBy(
      removed.deadline,
      async () => !(await html(request, '/privacidade')).includes(BAR),
    )
  })

  test('axe is clean and nothing shifts with the bar, at 375 and 1280 px', async ({
    page,
    request,
  }) => {
    test.setTimeout(300_000)
    await mutate(request, {
      createOrReplace: {
        _id: 'announcement',
        _type: 'announcement',
        text: 'Demonstrações na feira de transporte, de 1 a 3 de dezembro',
        tone: 'informativo',
        link: { _type: 'link', label: 'Agendar', href: '/#contato' },
      },
    })
    const { deadline } = await deliver(request, { _type: 'announcement', _id: 'announcement' })
    for (const path of ['/', '/privacidade', '/p/onibus-rodoviarios'])
      await reachedBy(deadline, async () => (await html(request, path)).includes(BAR))

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      for (const path of ['/', '/privacidade', '/p/onibus-rodoviarios']) {
        await page.goto(`${SITE}${path}`)
        await expect(page.getByRole('complementary', { name: 'Aviso' })).toBeVisible()
        expect(await cumulativeLayoutShift(page), `${path} at ${width}px`).toBeLessThanOrEqual(0.02)
        await expectNoAxeViolations(page)
      }
    }

    await mutate(request, { delete: { id: 'announcement' } })
    await publish(request, { _type: 'announcement', _id: 'announcement' })
  })

  test('a review link shows only that draft, read-only and uncached, until revoked or expired', async ({
    request,
  }) => {
    const pageId = 'campaignPage-onibus-rodoviarios'
    const published = await lakeQuery<
      Record<string, unknown> & { blocks: Array<Record<string, unknown>> }
    >(request, `*[_id == "${pageId}"][0]`)
    const draftHeadline = 'Rascunho: nova chamada para o fretamento'
    const claim = await lakeQuery<Record<string, unknown>>(
      request,
      `*[_id == "claim-monitoring"][0]`,
    )
    await mutate(
      request,
      {
        createOrReplace: {
          ...published,
          _id: `drafts.${pageId}`,
          blocks: published.blocks.map((block, index) =>
            index === 0 ? { ...block, headline: draftHeadline } : block,
          ),
        },
      },
      // Another document's draft, which the link must not show.
      { createOrReplace: { ...claim, _id: 'drafts.claim-monitoring', value: '77/7' } },
    )

    const token = randomBytes(32).toString('base64url')
    const expiredToken = randomBytes(32).toString('base64url')
    const hash = (value: string) => createHash('sha256').update(value).digest('hex')
    const link = (id: string, value: string, expiresAt: number) => ({
      createOrReplace: {
        _id: `review-links.${id}`,
        _type: 'reviewLink',
        page: { _type: 'reference', _ref: pageId, _weak: true },
        tokenHash: hash(value),
        expiresAt: new Date(expiresAt).toISOString(),
        revoked: false,
      },
    })
    await mutate(
      request,
      link(`ok-${RUN}`, token, Date.now() + 7 * 86_400_000),
      link(`old-${RUN}`, expiredToken, Date.now() - 1_000),
    )

    const review = await get(request, `/revisao/${token}`)
    expect(review.status()).toBe(200)
    const html = await review.text()
    expect(html).toContain(draftHeadline)
    expect(html).toContain('Pré-visualização')
    expect(html).not.toContain('77/7')
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow/)
    expect(review.headers()['x-robots-tag']).toBe('noindex, nofollow')
    expect(review.headers()['cache-control']).toMatch(/private/)
    expect(review.headers()['cache-control']).toMatch(/no-store/)
    // The public page is untouched.
    expect(await (await get(request, '/p/onibus-rodoviarios')).text()).not.toContain(draftHeadline)
    // Each variant of the page's experiment, as the Studio's dialog lists them (?variante=); the
    // default, or a malformed value, is the draft as it is.
    const h1 = async (query: string) =>
      /<h1[^>]*>([\s\S]*?)<\/h1>/
        .exec(await (await get(request, `/revisao/${token}${query}`)).text())?.[1]
        ?.replace(/<[^>]+>/g, '')
    const variants = published.blocks[0]?.experimentVariants as {
      variant: string
      headline: string
    }[]
    const tempoReal = variants.find((entry) => entry.variant === 'tempo-real')!.headline
    expect(await h1('?variante=titulo-onibus/tempo-real')).toBe(tempoReal)
    expect(await h1('?variante=titulo-onibus/controle')).toBe(draftHeadline)
    expect(await h1('?variante=../tempo-real')).toBe(draftHeadline)

    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    expect((await get(request, `/revisao/${altered}`)).status()).toBe(404)
    expect((await get(request, `/revisao/${expiredToken}`)).status()).toBe(404)
    expect((await get(request, '/revisao/nao-e-um-token')).status()).toBe(404)

    await mutate(request, { patch: { id: `review-links.ok-${RUN}`, set: { revoked: true } } })
    expect((await get(request, `/revisao/${token}`)).status()).toBe(404)
  })

  test('a review link to an article shows the article draft only, read-only and uncached', async ({
    request,
  }) => {
    const articleId = 'article-protocolo-de-resposta-apos-alerta'
    const published = await lakeQuery<Record<string, unknown>>(
      request,
      `*[_id == "${articleId}"][0]`,
    )
    const other = await lakeQuery<Record<string, unknown>>(
      request,
      `*[_id == "article-como-o-celular-detecta-fadiga"][0]`,
    )
    const draftTitle = 'Rascunho: o protocolo de resposta revisado'
    const otherDraftTitle = 'Rascunho de outro artigo que o link não mostra'
    await mutate(
      request,
      { createOrReplace: { ...published, _id: `drafts.${articleId}`, title: draftTitle } },
      // Another article's draft (a related one), which the link must not show.
      {
        createOrReplace: {
          ...other,
          _id: 'drafts.article-como-o-celular-detecta-fadiga',
          title: otherDraftTitle,
        },
      },
    )
    const token = randomBytes(32).toString('base64url')
    await mutate(request, {
      createOrReplace: {
        _id: `review-links.artigo-${RUN}`,
        _type: 'reviewLink',
        page: { _type: 'reference', _ref: articleId, _weak: true },
        tokenHash: createHash('sha256').update(token).digest('hex'),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        revoked: false,
      },
    })

    const review = await get(request, `/revisao/${token}`)
    expect(review.status()).toBe(200)
    const html = await review.text()
    expect(html).toContain(draftTitle)
    expect(html).toContain('Pré-visualização')
    // The related article is there, in its published version only.
    expect(html).toContain('Como o celular do motorista detecta fadiga')
    expect(html).not.toContain(otherDraftTitle)
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow/)
    expect(review.headers()['x-robots-tag']).toBe('noindex, nofollow')
    expect(review.headers()['cache-control']).toMatch(/no-store/)
    // The public article is untouched.
    expect(
      await (await get(request, '/conteudos/protocolo-de-resposta-apos-alerta')).text(),
    ).not.toContain(draftTitle)

    await mutate(request, { patch: { id: `review-links.artigo-${RUN}`, set: { revoked: true } } })
    expect((await get(request, `/revisao/${token}`)).status()).toBe(404)
  })

  test("a review link to a material shows its draft, never the file's address", async ({
    request,
  }) => {
    const materialId = 'material-checklist-camera-cabine-lgpd'
    const published = await lakeQuery<Record<string, unknown>>(
      request,
      `*[_id == "${materialId}"][0]`,
    )
    const draftTitle = 'Rascunho: checklist revisado'
    await mutate(request, {
      createOrReplace: { ...published, _id: `drafts.${materialId}`, title: draftTitle },
    })
    const token = randomBytes(32).toString('base64url')
    await mutate(request, {
      createOrReplace: {
        _id: `review-links.material-${RUN}`,
        _type: 'reviewLink',
        page: { _type: 'reference', _ref: materialId, _weak: true },
        tokenHash: createHash('sha256').update(token).digest('hex'),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        revoked: false,
      },
    })
    const review = await get(request, `/revisao/${token}`)
    expect(review.status()).toBe(200)
    const html = await review.text()
    expect(html).toContain(draftTitle)
    expect(html).toContain('Pré-visualização')
    expect(html).not.toMatch(/\.pdf|\/files\/|\/baixar/)
    expect(review.headers()['cache-control']).toMatch(/no-store/)
    expect(
      await (await get(request, '/materiais/checklist-camera-cabine-lgpd')).text(),
    ).not.toContain(draftTitle)
    // Revoking is the same code as for a page (above), whose lookups the review limit counts.
    await mutate(request, { patch: { id: `review-links.material-${RUN}`, set: { revoked: true } } })
  })

  test("a material's download serves its Sanity file asset through the site, and stops once it is unpublished", async ({
    request,
  }) => {
    const slug = 'checklist-camera-cabine-lgpd'
    // The key a stored conversion is answered with (lib/materials/download-link.ts), for an hour.
    const expires = Math.floor(Date.now() / 1000) + 3600
    const siteKey = Buffer.from(
      fs.readFileSync(path.join(process.cwd(), '.data', 'form-signing-key'), 'utf8').trim(),
      'hex',
    )
    const signature = createHmac('sha256', siteKey)
      .update(`material-download:${slug}:${expires}`)
      .digest('base64url')
    const link = `/materiais/${slug}/baixar?chave=${expires}.${signature}`
    const file = await get(request, link)
    expect(file.status()).toBe(200)
    expect(file.headers()['content-type']).toBe('application/pdf')
    expect(file.headers()['cache-control']).toBe('private, no-store')
    expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-')
    // The page itself names no file, on the Content Lake build too.
    expect(await (await get(request, `/materiais/${slug}`)).text()).not.toMatch(/\/files\/|\.pdf/)

    const published = await lakeQuery<Record<string, unknown>>(
      request,
      `*[_id == "material-${slug}"][0]`,
    )
    await mutate(request, { delete: { id: `material-${slug}` } })
    try {
      const gone = await get(request, link)
      expect(gone.status()).toBe(404)
      expect(await gone.text()).toContain('não está mais disponível')
    } finally {
      await mutate(request, { createOrReplace: published })
    }
  })
})

/** The page's cumulative layout shift so far (every shift; no input happened). */
async function cumulativeLayoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>)
            total += entry.value
        }).observe({ type: 'layout-shift', buffered: true })
        setTimeout(() => resolve(total), 1_000)
      }),
  )
}

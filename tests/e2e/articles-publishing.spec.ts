import { expect, test, type APIRequestContext } from '@playwright/test'

import {
  deliverWebhook as deliver,
  mutateLake as mutate,
  publishWebhook as publish,
  reachedBy,
  resetLake,
} from './lake-fixtures'
import { SERVERS } from './servers'

/*
 * Articles go live without a deploy: articles published after the build, against the lake build
 * and its Content Lake double, through the signed webhook with the projection of docs/content.md
 * (WEBHOOK_PROJECTION). Runs in the Playwright project "lake", one spec of that
 * build at a time, once and in order. Each check of a publish shares that publish's deadline:
 * 5 s from the moment the webhook is sent (lake-fixtures.ts).
 */

const SITE = SERVERS.lake.url

const SLUG = 'telemetria-e-fadiga-e2e'
const PATH = `/conteudos/${SLUG}`
const TITLE = 'Telemetria e fadiga: dois sinais, uma decisão'
const RENAMED = 'telemetria-e-fadiga-2027-e2e'
const RENAMED_PATH = `/conteudos/${RENAMED}`

const status = async (request: APIRequestContext, path: string) =>
  (await request.get(`${SITE}${path}`, { maxRedirects: 0 })).status()
const text = async (request: APIRequestContext, path: string) =>
  (await request.get(`${SITE}${path}`)).text()

const span = (text: string, key: string) => ({ _type: 'span', _key: key, text, marks: [] })
const block = (text: string, key: string, style = 'normal') => ({
  _type: 'block',
  _key: key,
  style,
  markDefs: [],
  children: [span(text, `${key}s`)],
})

const newArticle = {
  _id: 'article-telemetria-e2e',
  _type: 'article',
  title: TITLE,
  slug: { _type: 'slug', current: SLUG },
  description:
    'Como a telemetria do veículo e a detecção de fadiga no celular se complementam na gestão da frota.',
  categories: [{ _type: 'reference', _ref: 'category-fadiga-e-seguranca', _key: 'c' }],
  author: { _type: 'reference', _ref: 'author-equipe-vigia' },
  publishedAt: '2026-11-25T12:00:00Z',
  body: [
    block('A telemetria mostra o que o veículo faz.', 'p1'),
    block('O que o veículo mostra', 'h2', 'h2'),
    block('Velocidade, frenagens e rotas.', 'p2'),
  ],
}

/** Older articles, so the listing needs a second page (the bundle has only three). */
const olderArticles = Array.from({ length: 12 }, (_, index) => ({
  ...newArticle,
  _id: `article-antigo-e2e-${index + 1}`,
  title: `Artigo antigo ${index + 1}`,
  slug: { _type: 'slug', current: `artigo-antigo-e2e-${index + 1}` },
  publishedAt: new Date(Date.UTC(2026, 8, 30 - index, 12)).toISOString(),
}))

test.describe('articles: publishing without a deploy', () => {
  test.describe.configure({ mode: 'serial' })

  test.beforeAll(async ({ request }) => {
    await resetLake(request)
  })

  test('an article that exists only as a draft answers 404, even after a webhook', async ({
    request,
  }) => {
    await mutate(request, {
      createOrReplace: {
        ...newArticle,
        _id: 'drafts.article-rascunho-e2e',
        slug: { _type: 'slug', current: 'rascunho-e2e' },
      },
    })
    await publish(request, { _type: 'article', _id: 'article-rascunho-e2e', slug: 'rascunho-e2e' })
    expect(await status(request, '/conteudos/rascunho-e2e')).toBe(404)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(await status(request, '/conteudos/rascunho-e2e')).toBe(404)
    expect(await text(request, '/conteudos')).not.toContain('rascunho-e2e')
  })

  test('a new article is live, first on the listing, in its category, the sitemap and the feed within 5 s', async ({
    request,
  }) => {
    // Requested once before it exists: that 404 is cached too, and must not outlive the publish.
    expect(await status(request, PATH)).toBe(404)
    await mutate(request, { createOrReplace: newArticle })
    const { answer, deadline } = await deliver(request, {
      _type: 'article',
      _id: newArticle._id,
      slug: SLUG,
    })
    // The article lists and its own page; no other article's (lib/routed-type-plans.ts).
    expect(answer.revalidated).toEqual(
      expect.arrayContaining(['sanity:article', `sanity:doc:article:${SLUG}`]),
    )
    // Every place at once, each by the same deadline.
    await Promise.all([
      reachedBy(
        deadline,
        async () => {
          const response = await request.get(`${SITE}${PATH}`)
          return response.status() === 200 && (await response.text()).includes(TITLE)
        },
        'the article',
      ),
      reachedBy(
        deadline,
        async () => {
          const html = await text(request, '/conteudos')
          const first = html.match(/<h2[^>]*>\s*<a href="(\/conteudos\/[^"]+)"/)?.[1]
          return first === PATH
        },
        'first on the listing',
      ),
      reachedBy(
        deadline,
        async () =>
          (await text(request, '/conteudos/categoria/fadiga-e-seguranca')).includes(TITLE),
        'in its category',
      ),
      reachedBy(
        deadline,
        async () => (await text(request, '/sitemap.xml')).includes(`${PATH}</loc>`),
        'in the sitemap',
      ),
      reachedBy(
        deadline,
        async () => (await text(request, '/conteudos/feed.xml')).includes(`${PATH}</link>`),
        'in the feed',
      ),
    ])
  })

  test('the social card carries the article’s title: a new title, a new card; the old title back, the very same card', async ({
    request,
  }) => {
    // The article has no cover or sharing image, so its card is drawn from its title
    // (app/conteudos/[slug]/opengraph-image.tsx). Drawing is deterministic: the same title gives
    // the same PNG, another title another one, which a card ignoring the title would not.
    const card = async () => {
      const response = await request.get(`${SITE}${PATH}/opengraph-image`)
      expect(response.status()).toBe(200)
      expect(response.headers()['content-type']).toBe('image/png')
      return (await response.body()).toString('base64')
    }
    const original = await card()
    const retitle = async (title: string) => {
      await mutate(request, { patch: { id: newArticle._id, set: { title } } })
      return (await deliver(request, { _type: 'article', _id: newArticle._id, slug: SLUG }))
        .deadline
    }
    const renamed = await retitle('Telemetria e fadiga: um título novo para o cartão')
    await reachedBy(
      renamed,
      async () => (await card()) !== original,
      'a new card for the new title',
    )
    const back = await retitle(TITLE)
    await reachedBy(back, async () => (await card()) === original, 'the first card again')
  })

  test('editing the author updates the byline on the articles that show it', async ({
    request,
  }) => {
    await mutate(request, {
      patch: { id: 'author-equipe-vigia', set: { role: 'Equipe de segurança viária (e2e)' } },
    })
    const { deadline } = await deliver(request, {
      _type: 'author',
      _id: 'author-equipe-vigia',
      slug: null,
    })
    await reachedBy(deadline, async () =>
      (await text(request, PATH)).includes('Equipe de segurança viária (e2e)'),
    )
    await reachedBy(deadline, async () =>
      (await text(request, '/conteudos/lgpd-camera-na-cabine')).includes(
        'Equipe de segurança viária (e2e)',
      ),
    )
  })

  test('renaming a category updates its articles and leaves the other articles cached', async ({
    request,
  }) => {
    const cache = async (path: string) =>
      (await request.get(`${SITE}${path}`)).headers()['x-nextjs-cache'] ?? ''
    // Another category's article, cached (a first visit after another publish may regenerate it).
    const other = '/conteudos/como-o-celular-detecta-fadiga'
    await expect.poll(() => cache(other), { timeout: 15_000 }).toBe('HIT')
    const retitle = async (title: string) => {
      await mutate(request, { patch: { id: 'category-lgpd-e-privacidade', set: { title } } })
      return (
        await deliver(request, {
          _type: 'category',
          _id: 'category-lgpd-e-privacidade',
          slug: 'lgpd-e-privacidade',
        })
      ).deadline
    }
    const renamed = 'LGPD e privacidade na cabine (e2e)'
    const deadline = await retitle(renamed)
    await reachedBy(deadline, async () =>
      (await text(request, '/conteudos/lgpd-camera-na-cabine')).includes(renamed),
    )
    await reachedBy(deadline, async () =>
      (await text(request, '/conteudos/categoria/lgpd-e-privacidade')).includes(renamed),
    )
    // Its articles' pages were revalidated by their own tags, not every article's.
    expect(await cache(other)).toBe('HIT')
    const back = await retitle('LGPD e privacidade')
    await reachedBy(
      back,
      async () => !(await text(request, '/conteudos/lgpd-camera-na-cabine')).includes(renamed),
      'the category’s name back',
    )
  })

  test('more than 12 articles: page 1 has the newest 12, page 2 the rest, each with its canonical URL', async ({
    page,
    request,
  }) => {
    await mutate(request, ...olderArticles.map((article) => ({ createOrReplace: article })))
    const { deadline } = await deliver(request, {
      _type: 'article',
      _id: olderArticles[0]!._id,
      slug: olderArticles[0]!.slug.current,
    })
    await reachedBy(deadline, async () => (await status(request, '/conteudos/pagina/2')) === 200)
    // Page 1 is regenerated in the background after the webhook: 12 cards once it is.
    await reachedBy(
      deadline,
      async () => (await text(request, '/conteudos')).match(/<h2[^>]*>\s*<a href=/g)?.length === 12,
    )
    await reachedBy(deadline, async () =>
      (await text(request, '/sitemap.xml')).includes('/conteudos/pagina/2</loc>'),
    )

    await page.goto(`${SITE}/conteudos`)
    const titles = page.getByRole('main').getByRole('heading', { level: 2 })
    await expect(titles).toHaveCount(12)
    await expect(titles.first()).toHaveText(TITLE)
    const pages = page.getByRole('navigation', { name: 'Páginas da lista de conteúdos' })
    await pages.getByRole('link', { name: 'Próxima' }).click()
    await expect(page).toHaveURL(`${SITE}/conteudos/pagina/2`)
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      /\/conteudos\/pagina\/2$/,
    )
    // 16 in all, newest first: the four oldest are here.
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText(
      olderArticles.slice(-4).map((article) => article.title),
    )
    await expect(pages.locator('[aria-current="page"]')).toHaveText(/2/)
    expect(await status(request, '/conteudos/pagina/3')).toBe(404)
  })

  test('a slug change keeps old links: the redirect the Studio writes answers 308 within 5 s', async ({
    request,
  }) => {
    // What the Studio's publish action writes (sanity/lib/slug-change.ts) with the renamed article.
    await mutate(
      request,
      { patch: { id: newArticle._id, set: { 'slug.current': RENAMED } } },
      {
        createOrReplace: {
          _id: `redirect-conteudos-${SLUG}`,
          _type: 'redirect',
          from: PATH,
          to: RENAMED_PATH,
          permanent: true,
        },
      },
    )
    const article = await deliver(request, { _type: 'article', _id: newArticle._id, slug: RENAMED })
    const redirect = await deliver(request, {
      _type: 'redirect',
      _id: `redirect-conteudos-${SLUG}`,
      slug: null,
    })
    await reachedBy(article.deadline, async () => (await status(request, RENAMED_PATH)) === 200)
    await reachedBy(redirect.deadline, async () => {
      const response = await request.get(`${SITE}${PATH}`, { maxRedirects: 0 })
      return response.status() === 308 && (response.headers().location ?? '').endsWith(RENAMED_PATH)
    })
  })

  test('a deleted article answers 404 and leaves the listing and the feed within 5 s', async ({
    request,
  }) => {
    await mutate(
      request,
      { delete: { id: `redirect-conteudos-${SLUG}` } },
      { delete: { id: newArticle._id } },
    )
    const redirect = await deliver(request, {
      _type: 'redirect',
      _id: `redirect-conteudos-${SLUG}`,
      slug: null,
    })
    const article = await deliver(request, { _type: 'article', _id: newArticle._id, slug: RENAMED })
    await reachedBy(redirect.deadline, async () => (await status(request, PATH)) === 404)
    const { deadline } = article
    await reachedBy(deadline, async () => (await status(request, RENAMED_PATH)) === 404)
    await reachedBy(deadline, async () => !(await text(request, '/conteudos')).includes(TITLE))
    await reachedBy(
      deadline,
      async () => !(await text(request, '/conteudos/feed.xml')).includes(RENAMED_PATH),
    )
    await reachedBy(
      deadline,
      async () => !(await text(request, '/sitemap.xml')).includes(`${RENAMED_PATH}</loc>`),
    )
  })

  test('an article with a start ahead: 404 (or its chosen redirect) before, live by itself at the start, redirected again after its end', async ({
    request,
  }) => {
    test.setTimeout(90_000)
    const run = Date.now().toString(36)
    const plain = { slug: `artigo-inicio-e2e-${run}`, title: 'Agenda da feira: demonstrações' }
    const redirected = { slug: `artigo-janela-e2e-${run}`, title: 'Feira: o que levar na cabine' }
    const articleAt = ({ slug, title }: typeof plain, extra: Record<string, unknown>) => ({
      ...newArticle,
      _id: `article-${slug}`,
      title,
      slug: { _type: 'slug', current: slug },
      publishedAt: new Date().toISOString(),
      ...extra,
    })
    // Written now, relative to now: the checks before the start are bounded by the publish's
    // deadline (5 s from the webhook), well inside these 10 s.
    const start = Date.now() + 10_000
    const end = start + 6_000
    await mutate(
      request,
      { createOrReplace: articleAt(plain, { visibleFrom: new Date(start).toISOString() }) },
      {
        createOrReplace: articleAt(redirected, {
          visibleFrom: new Date(start).toISOString(),
          visibleUntil: new Date(end).toISOString(),
          hiddenRedirect: '/conteudos',
        }),
      },
    )
    const { deadline } = await deliver(request, {
      _type: 'article',
      _id: `article-${plain.slug}`,
      slug: plain.slug,
    })
    const redirectsToListing = async () => {
      const response = await request.get(`${SITE}/conteudos/${redirected.slug}`, {
        maxRedirects: 0,
      })
      return response.status() === 307 && /\/conteudos$/.test(response.headers().location ?? '')
    }
    await reachedBy(deadline, redirectsToListing, 'before its start, the article redirects')
    expect(await status(request, `/conteudos/${plain.slug}`)).toBe(404)
    const listing = await text(request, '/conteudos')
    expect(listing).not.toContain(plain.title)
    expect(listing).not.toContain(redirected.title)
    expect(await text(request, '/sitemap.xml')).not.toContain(`/conteudos/${plain.slug}</loc>`)
    expect(Date.now(), 'the checks before the start ran before it').toBeLessThan(start)

    // No webhook from here on: the article, the listing and the sitemap change at the start.
    await new Promise((resolve) => setTimeout(resolve, start + 1_500 - Date.now()))
    const live = await request.get(`${SITE}/conteudos/${plain.slug}`)
    expect(live.status()).toBe(200)
    expect(await live.text()).toContain(plain.title)
    expect(await status(request, `/conteudos/${redirected.slug}`)).toBe(200)
    expect(await text(request, '/conteudos')).toContain(plain.title)
    expect(await text(request, '/sitemap.xml')).toContain(`/conteudos/${plain.slug}</loc>`)
    expect(Date.now(), 'the checks inside the window ran before its end').toBeLessThan(end)

    // And after its end, the chosen redirect again.
    await new Promise((resolve) => setTimeout(resolve, end + 1_500 - Date.now()))
    expect(await redirectsToListing(), 'after its end, the article redirects again').toBe(true)
    expect(await text(request, '/conteudos')).not.toContain(redirected.title)
  })

  test('an editor previews a draft article in draft mode, with the overlay', async ({
    browser,
    request,
  }) => {
    await mutate(request, {
      createOrReplace: {
        _id: 'drafts.sanity-preview-url-secret.articles-e2e',
        _type: 'sanity.previewUrlSecret',
        secret: 'articles-e2e-secret',
        studioUrl: `${SITE}/studio`,
        _updatedAt: new Date().toISOString(),
      },
    })
    const editor = await browser.newContext()
    try {
      const page = await editor.newPage()
      await page.goto(
        `${SITE}/api/draft-mode/enable?sanity-preview-secret=articles-e2e-secret&sanity-preview-pathname=/preview/conteudos/rascunho-e2e`,
      )
      await expect(page).toHaveURL(`${SITE}/preview/conteudos/rascunho-e2e`)
      await expect(page.getByRole('heading', { level: 1 })).toContainText(TITLE)
      await expect(page.getByRole('link', { name: 'Modo rascunho: sair' })).toBeVisible()
    } finally {
      await editor.close()
    }
    expect(await status(request, '/conteudos/rascunho-e2e')).toBe(404)
  })
})

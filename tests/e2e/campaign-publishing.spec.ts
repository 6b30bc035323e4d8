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
 * Campaign pages go live without a deploy: a page published after the build, against the lake
 * build and its Content Lake double, through the signed webhook with the projection of docs/content.md
 * (WEBHOOK_PROJECTION). Runs in the Playwright project "lake", one spec of that
 * build at a time, once and in order. Each check of a publish shares that publish's deadline:
 * 5 s from the moment the webhook is sent (lake-fixtures.ts).
 */

const SITE = SERVERS.lake.url

const SLUG = 'feira-transporte-e2e'
const PATH = `/p/${SLUG}`
const HEADLINE = 'Vigia na feira: segurança para frotas'

const status = async (request: APIRequestContext, path: string) =>
  (await request.get(`${SITE}${path}`, { maxRedirects: 0 })).status()

/** A page with no interactive block: hero, steps and a call-to-action band. */
const newPage = {
  _id: 'campaignPage-feira-e2e',
  _type: 'campaignPage',
  title: 'Vigia na feira',
  slug: { _type: 'slug', current: SLUG },
  seo: {
    description: 'A Vigia na feira de transporte: detecção de fadiga no celular do motorista.',
  },
  blocks: [
    {
      _type: 'heroBlock',
      _key: 'h',
      headline: HEADLINE,
      description: 'Detecção de fadiga, sonolência e distração no smartphone Android do motorista.',
      primaryCta: { _type: 'link', label: 'Falar com a equipe', href: '/#contato' },
      stats: [{ _type: 'reference', _ref: 'claim-monitoring', _key: 's' }],
    },
    {
      _type: 'stepsBlock',
      _key: 'e',
      heading: 'Como funciona na estrada',
      steps: [
        {
          _type: 'featureCard',
          _key: 'a',
          icon: 'eye',
          title: 'Detecção',
          description: 'A câmera acompanha o motorista.',
        },
        {
          _type: 'featureCard',
          _key: 'b',
          icon: 'bell-ring',
          title: 'Ação',
          description: 'Alertas graduados na cabine.',
        },
      ],
    },
    {
      _type: 'ctaBandBlock',
      _key: 'c',
      heading: 'Agende uma demonstração',
      primaryCta: { _type: 'link', label: 'Solicitar Demonstração', href: '/#contato' },
    },
  ],
}

test.describe('campaign pages: publishing without a deploy', () => {
  test.describe.configure({ mode: 'serial' })

  test.beforeAll(async ({ request }) => {
    await resetLake(request)
  })

  test('a page that exists only as a draft answers 404, even after a webhook', async ({
    request,
  }) => {
    await mutate(request, {
      createOrReplace: {
        ...newPage,
        _id: 'drafts.campaignPage-rascunho-e2e',
        slug: { _type: 'slug', current: 'rascunho-e2e' },
      },
    })
    await publish(request, {
      _type: 'campaignPage',
      _id: 'campaignPage-rascunho-e2e',
      slug: 'rascunho-e2e',
    })
    expect(await status(request, '/p/rascunho-e2e')).toBe(404)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(await status(request, '/p/rascunho-e2e')).toBe(404)
  })

  test('a new page published through the webhook is live and in the sitemap within 5 s', async ({
    request,
  }) => {
    // Requested once before it exists: that 404 is cached too, and must not outlive the publish.
    expect(await status(request, PATH)).toBe(404)
    await mutate(request, { createOrReplace: newPage })
    const { answer, deadline } = await deliver(request, {
      _type: 'campaignPage',
      _id: newPage._id,
      slug: SLUG,
    })
    expect(answer).toMatchObject({
      revalidated: ['sanity:campaignPage', `sanity:doc:campaignPage:${SLUG}`],
    })
    await reachedBy(deadline, async () => {
      const response = await request.get(`${SITE}${PATH}`)
      return response.status() === 200 && (await response.text()).includes(HEADLINE)
    })
    await reachedBy(deadline, async () =>
      (await (await request.get(`${SITE}/sitemap.xml`)).text()).includes(`${PATH}</loc>`),
    )
  })

  test('blocks without interaction ship no client JavaScript of their own', async ({ request }) => {
    const scripts = async (path: string) => {
      const html = await (await request.get(`${SITE}${path}`)).text()
      return [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!)
    }
    // The legal pages are the site's pages without islands: the new page loads nothing more.
    const legal = new Set(await scripts('/privacidade'))
    const extra = (await scripts(PATH)).filter((src) => !legal.has(src))
    let extraBytes = 0
    for (const src of extra)
      extraBytes += (await (await request.get(`${SITE}${src}`)).body()).length
    // At most the route's own chunk: the form's island, which loads the form on demand (about
    // 6 KB, 3 KB gzip), never the form itself (react-hook-form alone is several times that) or
    // the mobile menu.
    expect(extraBytes, extra.join('\n')).toBeLessThan(7_000)
    for (const src of extra) {
      const code = await (await request.get(`${SITE}${src}`)).text()
      for (const island of ['useActionState', 'aria-expanded', 'noValidate'])
        expect(code.includes(island), `${src} contains ${island}`).toBe(false)
    }
  })

  test('a noindex page stays live but leaves the sitemap', async ({ request }) => {
    await mutate(request, { patch: { id: newPage._id, set: { 'seo.noindex': true } } })
    const { deadline } = await deliver(request, {
      _type: 'campaignPage',
      _id: newPage._id,
      slug: SLUG,
    })
    await reachedBy(
      deadline,
      async () =>
        !(await (await request.get(`${SITE}/sitemap.xml`)).text()).includes(`${PATH}</loc>`),
    )
    await reachedBy(deadline, async () =>
      /<meta name="robots" content="noindex, ?follow"/.test(
        await (await request.get(`${SITE}${PATH}`)).text(),
      ),
    )
  })

  test('a redirect published after the build answers 308 within 5 s, and a slug change keeps old links', async ({
    request,
  }) => {
    // The editor renames the page and adds the redirect from the old address.
    const renamed = 'feira-transporte-2027-e2e'
    await mutate(
      request,
      { patch: { id: newPage._id, set: { 'slug.current': renamed } } },
      {
        createOrReplace: {
          _id: 'redirect-feira-e2e',
          _type: 'redirect',
          from: PATH,
          to: `/p/${renamed}`,
          permanent: true,
        },
      },
    )
    const page = await deliver(request, { _type: 'campaignPage', _id: newPage._id, slug: renamed })
    const redirect = await deliver(request, {
      _type: 'redirect',
      _id: 'redirect-feira-e2e',
      slug: null,
    })
    await reachedBy(page.deadline, async () => (await status(request, `/p/${renamed}`)) === 200)
    const answers: string[] = []
    await reachedBy(redirect.deadline, async () => {
      const response = await request.get(`${SITE}${PATH}`, { maxRedirects: 0 })
      answers.push(`${response.status()} ${response.headers().location ?? ''}`)
      return answers.at(-1)!.startsWith('308 ') && answers.at(-1)!.endsWith(`/p/${renamed}`)
    }).catch((error: Error) => {
      throw new Error(`${error.message}\nanswers for ${PATH}: ${answers.join(' | ')}`)
    })
  })

  test('an unpublished page answers 404 within 5 s', async ({ request }) => {
    await mutate(request, { delete: { id: 'redirect-feira-e2e' } }, { delete: { id: newPage._id } })
    const { deadline } = await deliver(request, {
      _type: 'campaignPage',
      _id: newPage._id,
      slug: 'feira-transporte-2027-e2e',
    })
    await reachedBy(
      deadline,
      async () => (await status(request, '/p/feira-transporte-2027-e2e')) === 404,
    )
  })

  test('an editor previews an unpublished page in draft mode, with the overlay', async ({
    browser,
    request,
  }) => {
    await mutate(request, {
      createOrReplace: {
        _id: 'drafts.sanity-preview-url-secret.pages-e2e',
        _type: 'sanity.previewUrlSecret',
        secret: 'pages-e2e-secret',
        studioUrl: `${SITE}/studio`,
        _updatedAt: new Date().toISOString(),
      },
    })
    const editor = await browser.newContext()
    try {
      const page = await editor.newPage()
      await page.goto(
        `${SITE}/api/draft-mode/enable?sanity-preview-secret=pages-e2e-secret&sanity-preview-pathname=/preview/p/rascunho-e2e`,
      )
      await expect(page).toHaveURL(`${SITE}/preview/p/rascunho-e2e`)
      await expect(page.getByRole('heading', { level: 1 })).toContainText(HEADLINE)
      await expect(page.getByRole('link', { name: 'Modo rascunho: sair' })).toBeVisible()
    } finally {
      await editor.close()
    }
    // Visitors still get 404 for it.
    expect(await status(request, '/p/rascunho-e2e')).toBe(404)
  })
})

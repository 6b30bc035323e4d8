import { readFileSync } from 'node:fs'
import path from 'node:path'

import { expect, test, type APIRequestContext } from '@playwright/test'

import {
  lakeConsistencyDelay,
  publishDeadline,
  reachedBy,
  resetLake,
  type PublishDeadline,
} from './lake-fixtures'
import { E2E_CONSISTENCY_DELAY_MS } from '../../scripts/e2e-builds.cjs'
import { sanityWebhook } from '../support/sanity-webhook.mjs'
import { LAKE_REVALIDATE_SECRET, SERVERS } from './servers'
import { signedInStudio } from './studio-fixtures'

/*
 * Published edits reach visitors, against a production build whose content comes from the
 * Content Lake double (tests/support/content-lake-double.mjs) instead of the bundled dataset.
 *
 * Runs in the Playwright project named "lake" (playwright.config.ts), one spec of that build at
 * a time; it needs:
 * - the double on SERVERS.lakeDouble, started by scripts/test.mjs before the build with
 *   `--set 'claim-accuracy.value=97,3%'` so the built page differs from the bundled default;
 * - the "lake" build (scripts/e2e-builds.cjs) made while it runs and served on SERVERS.lake;
 * - the default site server (SERVERS.site: no Sanity project) for the Studio's set-up page.
 * The tests share the double's state, so they run in order, once.
 */

const SITE = SERVERS.lake.url
const LAKE = SERVERS.lakeDouble.url
const SECRET = LAKE_REVALIDATE_SECRET

const CLAIM_ID = 'claim-accuracy'
/** The figure as the double serves it from the start (its --set), different from the bundle. */
const BUILT_FIGURE = '97,3%'

function bundledFigure(): string {
  const file = path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson')
  const claim = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { _id: string; value?: string })
    .find((doc) => doc._id === CLAIM_ID)
  if (!claim?.value) throw new Error(`The bundled dataset has no ${CLAIM_ID}.`)
  return claim.value
}

async function lake(request: APIRequestContext, endpoint: string, data?: unknown) {
  const response = data
    ? await request.post(`${LAKE}${endpoint}`, { data })
    : await request.get(`${LAKE}${endpoint}`)
  expect(response.ok(), `${endpoint} on the Content Lake double`).toBe(true)
  return response.json()
}

const mutate = (request: APIRequestContext, ...mutations: unknown[]) =>
  lake(request, '/__mutate', { mutations })

const setFigure = (request: APIRequestContext, value: string, id = CLAIM_ID) =>
  mutate(request, { patch: { id, set: { value } } })

const contentRequests = async (request: APIRequestContext): Promise<number> =>
  (await lake(request, '/__requests')).count

/** The home page's HTML as a visitor gets it. */
async function homeHtml(request: APIRequestContext) {
  const response = await request.get(`${SITE}/`)
  expect(response.status()).toBe(200)
  return response.text()
}

/**
 * POSTs to /api/revalidate the way Sanity's webhook does; `sign: false` leaves the header out.
 * The answer comes with the publish's deadline, started as the webhook was sent.
 */
async function webhook(
  request: APIRequestContext,
  { secret = SECRET, at = Date.now(), sign = true } = {},
) {
  const delivery = await sanityWebhook({ _type: 'claim', _id: CLAIM_ID }, secret, { timestamp: at })
  const headers: Record<string, string> = { ...delivery.headers }
  if (!sign) delete headers['sanity-webhook-signature']
  const deadline = publishDeadline()
  const response = await request.post(`${SITE}/api/revalidate`, {
    data: delivery.body,
    headers,
  })
  return Object.assign(response, { deadline })
}

/** Fails if any script the page at `url` loads contains one of `markers`. */
async function expectNoScriptContains(request: APIRequestContext, url: string, markers: string[]) {
  const html = await (await request.get(url)).text()
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!)
  expect(scripts.length).toBeGreaterThan(0)
  for (const src of scripts) {
    const code = await (await request.get(new URL(src, url).href)).text()
    for (const marker of markers)
      expect(code.includes(marker), `${src} contains ${marker}`).toBe(false)
  }
}

/** Waits, until the publish's deadline (5 s from the webhook), for visitors to get `figure`. */
async function expectFigureBy(
  request: APIRequestContext,
  deadline: PublishDeadline,
  figure: string,
) {
  await reachedBy(deadline, async () => (await homeHtml(request)).includes(figure), figure)
}

test.describe('editing: published edits go live', () => {
  test.describe.configure({ mode: 'serial' })

  test.beforeAll(async ({ request }) => {
    // The build read the double's initial state; undo whatever an earlier run changed.
    await resetLake(request)
    // Other specs on this build publish too: wait until the home page is no longer being
    // regenerated, so that the counts of content requests below are this spec's own.
    await expect
      .poll(
        async () => {
          const before = await contentRequests(request)
          await homeHtml(request)
          await new Promise((resolve) => setTimeout(resolve, 1_000))
          await homeHtml(request)
          return (await contentRequests(request)) === before
        },
        { timeout: 30_000 },
      )
      .toBe(true)
  })

  test('the page shows the Content Lake content, not the bundled default', async ({ page }) => {
    expect(BUILT_FIGURE).not.toBe(bundledFigure())
    await page.goto(`${SITE}/`)
    await expect(page.locator('#tecnologia').getByText(BUILT_FIGURE, { exact: true })).toBeVisible()
    await expect(page.getByText(bundledFigure(), { exact: true })).toHaveCount(0)
  })

  test('before the webhook, visitors get the cached page without any content request', async ({
    request,
  }) => {
    await setFigure(request, '99,1%')
    const before = await contentRequests(request)
    for (let visitor = 0; visitor < 3; visitor++) {
      const html = await homeHtml(request)
      expect(html).toContain(BUILT_FIGURE)
      expect(html).not.toContain('99,1%')
    }
    expect(await contentRequests(request)).toBe(before)
  })

  test('a correctly signed webhook publishes the change within 5 seconds', async ({ request }) => {
    const before = await contentRequests(request)
    const response = await webhook(request)
    expect(response.status()).toBe(200)
    expect(await response.json()).toMatchObject({ revalidated: ['sanity:claim'] })

    await expectFigureBy(request, response.deadline, '99,1%')
    expect(await contentRequests(request)).toBeGreaterThan(before)

    // Regenerated once, then cached again: more visitors, no more content requests.
    const after = await contentRequests(request)
    for (let visitor = 0; visitor < 3; visitor++) expect(await homeHtml(request)).toContain('99,1%')
    expect(await contentRequests(request)).toBe(after)
  })

  test('unsigned, wrongly signed and stale webhooks are refused and change nothing', async ({
    request,
  }) => {
    await setFigure(request, '95,0%')
    const before = await contentRequests(request)

    const unsigned = await webhook(request, { sign: false })
    expect(unsigned.status()).toBe(401)
    const wrong = await webhook(request, { secret: 'not-the-secret' })
    expect(wrong.status()).toBe(401)
    const stale = await webhook(request, { at: Date.now() - 6 * 60 * 1000 })
    expect(stale.status()).toBe(401)
    expect(await stale.json()).toEqual({ message: 'Stale signature timestamp' })

    // Had any of them revalidated, a load now would regenerate the page with 95,0%.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    for (let visitor = 0; visitor < 2; visitor++) {
      const html = await homeHtml(request)
      expect(html).toContain('99,1%')
      expect(html).not.toContain('95,0%')
    }
    expect(await contentRequests(request)).toBe(before)
  })

  test('a draft-only change is invisible on the public page', async ({ request }) => {
    await setFigure(request, '96,2%')
    await mutate(request, {
      createOrReplace: {
        _id: `drafts.${CLAIM_ID}`,
        _type: 'claim',
        value: '11,1%',
        label: 'Rascunho',
      },
    })
    const response = await webhook(request)
    expect(response.status()).toBe(200)

    // The page was regenerated (it shows the new published figure), and not from the draft.
    await expectFigureBy(request, response.deadline, '96,2%')
    const html = await homeHtml(request)
    expect(html).not.toContain('11,1%')
    expect(html).not.toContain('Rascunho')
  })

  test('a signed webhook for a legal page publishes its new text within 5 seconds', async ({
    request,
  }) => {
    const legalPage = async () => {
      const response = await request.get(`${SITE}/privacidade`)
      expect(response.status()).toBe(200)
      return response.text()
    }
    const summary = 'Resumo revisado pelo jurídico em e2e.'
    await mutate(request, { patch: { id: 'legalPage-privacidade', set: { summary } } })
    expect(await legalPage()).not.toContain(summary)

    // What Sanity sends with the projection docs/content.md gives (the fields this test needs).
    const delivery = await sanityWebhook(
      { _type: 'legalPage', _id: 'legalPage-privacidade', slug: 'privacidade' },
      SECRET,
    )
    const deadline = publishDeadline()
    const response = await request.post(`${SITE}/api/revalidate`, {
      data: delivery.body,
      headers: delivery.headers,
    })
    expect(response.status()).toBe(200)
    expect(await response.json()).toMatchObject({
      revalidated: ['sanity:legalPage', 'sanity:doc:legalPage:privacidade'],
    })
    await reachedBy(deadline, async () => (await legalPage()).includes(summary))
  })

  test('draft mode shows an editor the draft, through the Presentation tool route', async ({
    browser,
    request,
  }) => {
    // What the Presentation tool stores before it opens the preview: a short-lived secret.
    await mutate(request, {
      createOrReplace: {
        _id: 'drafts.sanity-preview-url-secret.e2e',
        _type: 'sanity.previewUrlSecret',
        secret: 'e2e-preview-secret',
        studioUrl: `${SITE}/studio`,
        _updatedAt: new Date().toISOString(),
      },
    })

    const refused = await request.get(
      `${SITE}/api/draft-mode/enable?sanity-preview-secret=wrong&sanity-preview-pathname=/preview`,
      { maxRedirects: 0 },
    )
    expect(refused.status()).toBe(401)

    const editor = await browser.newContext()
    try {
      const page = await editor.newPage()
      await page.goto(
        `${SITE}/api/draft-mode/enable?sanity-preview-secret=e2e-preview-secret&sanity-preview-pathname=/preview`,
      )
      await expect(page).toHaveURL(`${SITE}/preview`)
      // The draft's figure, followed only by its stega encoding (invisible characters that map it
      // to its field for Presentation's click-to-edit).
      await expect(
        page.locator('#tecnologia').getByText(/^11,1%[\u200b-\u200d\ufeff]*$/),
      ).toBeVisible()
      const exit = page.getByRole('link', { name: 'Modo rascunho: sair' })
      await expect(exit).toBeVisible()

      // Meanwhile visitors keep the published figure.
      const html = await homeHtml(request)
      expect(html).toContain('96,2%')
      expect(html).not.toContain('11,1%')

      await exit.click()
      await expect(page).toHaveURL(`${SITE}/`)
      await expect(page.locator('#tecnologia').getByText('96,2%', { exact: true })).toBeVisible()
    } finally {
      await editor.close()
    }

    // Outside draft mode the preview route is just a way back to the public page.
    const preview = await request.get(`${SITE}/preview`, { maxRedirects: 0 })
    expect(preview.status()).toBe(307)
    expect(preview.headers().location).toMatch(/\/$/)
  })

  test('a publish still reaches visitors when the Content Lake answers with the old content for a moment', async ({
    request,
  }) => {
    // The Content Lake is eventually consistent: for a moment after a publish, a query can still
    // get the previous revision. The webhook waits for that (SANITY_WEBHOOK_CONSISTENCY_DELAY_MS,
    // 1 s on this build, 3 s by default; docs/publishing.md) before it has the page regenerated;
    // without the wait, the page would be rendered from the old content and kept as fresh.
    const stale = E2E_CONSISTENCY_DELAY_MS - 400
    await lakeConsistencyDelay(request, stale)
    try {
      await setFigure(request, '94,4%')
      const response = await webhook(request)
      expect(response.status()).toBe(200)
      await expectFigureBy(request, response.deadline, '94,4%')
      // And it stays: the page was not rendered from the old revision and kept.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(await homeHtml(request)).toContain('94,4%')
    } finally {
      await lakeConsistencyDelay(request, 0)
    }
  })
})

test.describe('editing: the Studio', () => {
  test('/studio serves the Studio when a project is configured', async ({ page }) => {
    const response = await page.goto(`${SITE}/studio`)
    expect(response?.status()).toBe(200)
    expect(await response?.text()).toContain('<meta name="robots" content="noindex"/>')
    // The Studio app itself loads after the page, then mounts its full-height layout.
    await expect(page.locator('[data-ui="NextStudioLayout"]')).toBeAttached({ timeout: 20_000 })
    await expect(page.getByText('não está conectado')).toHaveCount(0)
  })

  test('/studio speaks Brazilian Portuguese to a signed-in editor: its own labels, not only the schema’s', async ({
    page,
  }) => {
    test.setTimeout(90_000)
    // Signed in as an administrator, the Studio's Sanity API answered here, its queries sent on
    // to the Content Lake double (tests/e2e/studio-fixtures.ts).
    await signedInStudio(page, {
      lake: LAKE,
      token: 'editor-session-token',
      user: {
        id: 'p-e2e',
        name: 'Editora E2E',
        email: 'editora@example.com',
        role: 'administrator',
        roles: [{ name: 'administrator', title: 'Administrator' }],
      },
    })
    await page.goto(`${SITE}/studio/structure/claim`)
    // The schema's own titles, in Portuguese in the source...
    await expect(page.getByText('Números de marketing').first()).toBeVisible({ timeout: 45_000 })
    // ...and the Studio's own interface, from the pt-BR locale (sanity.config.ts): its
    // perspective menu says "Rascunhos" (Drafts), never the English of the default locale.
    await expect(page.getByText('Rascunhos', { exact: true }).first()).toBeVisible()
    await expect(page.getByText('Drafts', { exact: true })).toHaveCount(0)
  })

  test('/studio explains the set-up when no project is configured', async ({ page, request }) => {
    const response = await page.goto(`${SERVERS.site.url}/studio`)
    expect(response?.status()).toBe(200)
    await expect(
      page.getByRole('heading', {
        level: 1,
        name: 'O Studio ainda não está conectado a um projeto Sanity',
      }),
    ).toBeVisible()
    await expect(page.getByText('sanity/dataset/production.ndjson').first()).toBeVisible()
    await expect(page.getByText(/NEXT_PUBLIC_SANITY_PROJECT_ID=/)).toBeVisible()
    await expect(page.getByText(/npx sanity projects create/)).toBeVisible()
    await expect(
      page.getByText(/npx sanity datasets import sanity\/dataset\/production\.ndjson/),
    ).toBeVisible()
    // A light static page: the Studio's code is not even downloaded.
    await expectNoScriptContains(request, `${SERVERS.site.url}/studio`, ['NextStudioLayout'])
  })

  for (const [name, origin] of [
    ['with the Content Lake', SITE],
    ['on the bundled dataset', SERVERS.site.url],
  ] as const) {
    test(`the public page ships no Studio or draft-mode code (${name})`, async ({ request }) => {
      // Names the minifier keeps: the Studio's layout and the draft-mode overlay's export.
      await expectNoScriptContains(request, `${origin}/`, [
        'NextStudioLayout',
        'VisualEditing',
        'sanity-visual-editing',
      ])
    })
  }
})

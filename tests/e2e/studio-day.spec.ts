import { readFileSync } from 'node:fs'
import path from 'node:path'

import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test'

import { BUILDS, portFor } from '../../scripts/e2e-builds.cjs'
import {
  copyBuild,
  startContentLakeDouble,
  startInstance,
  tempDir,
} from '../../scripts/lib/front-stack.cjs'
import { publishDeadline, reachedBy } from './lake-fixtures'
import { signedInStudio, type StudioUser } from './studio-fixtures'

/*
 * An editor's day in the Studio (issue 52), in Chromium at 1280 px, against a copy of the lake
 * build whose Content Lake double applies the Studio's own writes: its publish button (the
 * Actions API), the slug-change redirect and review links (mutations), Presentation's preview
 * secret, the listener that keeps the open document live, and the publish webhook docs/content.md
 * configures, sent to this instance. Runs in the "studio" project (playwright.config.ts), whose
 * browser maps testproj.api.sanity.io to the double's HTTPS port. Screenshots of the Studio's
 * main screens are attached to the report (Desempenho's: studio-performance.spec.ts).
 */

const STUDIO_PORTS = { double: portFor(110).port, tls: portFor(111).port, site: portFor(112).port }

const EDITOR_TOKEN = 'sk-marketing-session-e2e'
const ADMIN_TOKEN = 'sk-admin-session-e2e'
const editor: StudioUser = {
  id: 'p-marketing',
  name: 'Marketing E2E',
  email: 'marketing@example.com',
  role: 'editor',
  roles: [{ name: 'editor', title: 'Editor' }],
}
const administrator: StudioUser = {
  id: 'p-admin',
  name: 'Admin E2E',
  email: 'admin@example.com',
  role: 'administrator',
  roles: [{ name: 'administrator', title: 'Administrator' }],
}

/**
 * The webhook's filter and projection as docs/content.md tells whoever sets it up (held to the
 * code by tests/unit/webhook-filter-doc.test.ts): what Sanity sends is what the docs configure.
 */
function documentedWebhook() {
  const doc = readFileSync(path.join(__dirname, '..', '..', 'docs', 'content.md'), 'utf8')
  const cell = (field: string) => {
    const row = doc.split('\n').find((line) => line.startsWith(`| ${field} `))
    const value = row?.match(/`([^`]+)`/)?.[1]
    if (!value) throw new Error(`docs/content.md has no webhook ${field}`)
    return value
  }
  return { filter: cell('Filter'), projection: cell('Projection') }
}

/** The bundled experiment's variant headline (sanity/dataset), made the default below. */
const TEMPO_REAL_HEADLINE = (() => {
  const dataset = readFileSync(
    path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson'),
    'utf8',
  )
  const found = /"variant":"tempo-real","headline":"([^"]+)"/.exec(dataset)?.[1]
  if (!found) throw new Error('The bundled experiment variant is missing.')
  return found
})()

type Running = { url: string; stop: () => Promise<void> }
let lake: Running
let site: Running
let removeBuild: () => void
let dataDir: string

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  const webhook = documentedWebhook()
  lake = await startContentLakeDouble({
    port: STUDIO_PORTS.double,
    args: [
      ...['--tls-port', String(STUDIO_PORTS.tls)],
      ...['--user', `${EDITOR_TOKEN}:${editor.id}:editor`],
      ...['--user', `${ADMIN_TOKEN}:${administrator.id}:administrator`],
      ...['--webhook-url', `http://127.0.0.1:${STUDIO_PORTS.site}/api/revalidate`],
      ...['--webhook-secret', BUILDS.lake.env.SANITY_REVALIDATE_SECRET],
      ...['--webhook-filter', webhook.filter],
      ...['--webhook-projection', webhook.projection],
    ],
  })
  const build = copyBuild(BUILDS.lake.distDir, 'studio')
  removeBuild = build.remove
  dataDir = tempDir('vigia-studio-')
  site = await startInstance({
    distDir: build.distDir,
    port: STUDIO_PORTS.site,
    env: {
      ...BUILDS.lake.env,
      SANITY_API_HOST: lake.url,
      SANITY_IMAGE_HOST: lake.url,
      LEADS_DATA_DIR: path.join(dataDir, 'leads'),
    },
    logFile: path.join('test-results', 'studio-instance.log'),
  })
})

test.afterAll(async () => {
  await Promise.all([site?.stop(), lake?.stop()])
  removeBuild?.()
})

type Delivery = { id: string; operation: string; sentAt: number; status: number }

/** The publish webhook the double sent for document `id` (since `since`), once the site answered. */
async function webhookFor(request: APIRequestContext, id: string, since = 0): Promise<Delivery> {
  let found: Delivery | undefined
  await expect
    .poll(
      async () => {
        const { deliveries } = (await (await request.get(`${lake.url}/__webhooks`)).json()) as {
          deliveries: Delivery[]
        }
        found = deliveries.findLast((delivery) => delivery.id === id && delivery.sentAt >= since)
        return found !== undefined
      },
      { timeout: 15_000 },
    )
    .toBe(true)
  return found!
}

/** Publishes the open new page and waits, at the publish promise, until `path` shows `text`. */
async function publishNewPage(
  page: Page,
  request: APIRequestContext,
  { id, path, text }: { id: string; path: string; text: string },
) {
  const publish = page.getByRole('button', { name: 'Publicar', exact: true })
  await expect(publish).toBeEnabled({ timeout: 30_000 })
  await publish.click()
  const delivery = await webhookFor(request, id)
  expect(delivery).toMatchObject({ operation: 'create', status: 200 })
  await reachedBy(publishDeadline(delivery.sentAt), async () =>
    (await (await request.get(`${site.url}${path}`)).text()).includes(text),
  )
}

/** A screenshot kept in the test's output folder and attached to the report. */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path: file })
  await testInfo.attach(name, { path: file, contentType: 'image/png' })
}

/**
 * Signs `user` in, answers the Studio's version check (sanity-cdn.com, which this machine cannot
 * reach) and records every Content Security Policy violation the page reports.
 */
async function openStudio(page: Page, user = editor, token = EDITOR_TOKEN) {
  const violations: string[] = []
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text())
  })
  await page.route('https://sanity-cdn.com/**', (route) =>
    route.fulfill({ json: { packageVersion: '5.31.2', latest: '5.31.2' } }),
  )
  await signedInStudio(page, { lake: lake.url, token, user, live: true })
  return violations
}

test('the desk and every singleton read as they are: each titled by its own name, no Vision for an editor, no CSP errors', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000)
  const violations = await openStudio(page)
  await page.goto(`${site.url}/studio/structure`)
  const desk = page.getByRole('link', { name: 'Página inicial' }).first()
  await expect(desk).toBeVisible({ timeout: 60_000 })
  // The top bar: Conteúdo, Pré-visualização and Desempenho, never Vision for an editor.
  await expect(page.getByRole('link', { name: 'Conteúdo' }).first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'Desempenho' }).first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'Vision' })).toHaveCount(0)
  // Sanity's Releases tool, named in Portuguese (sanity.config.ts).
  await expect(page.getByRole('link', { name: 'Lançamentos' }).first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'Releases' })).toHaveCount(0)
  await shot(page, testInfo, 'studio-desk-1280')

  for (const [id, title, field] of [
    ['landingPage', 'Página inicial', 'Título principal'],
    ['siteSettings', 'Configurações do site', 'Nome da marca'],
    ['roiCalculator', 'Premissas da calculadora de economia', 'Título da calculadora'],
  ] as const) {
    await page.goto(`${site.url}/studio/structure/${id}`)
    // The editor's header (an h2): the document's own name, never "Novo Página inicial".
    await expect(page.getByRole('heading', { level: 2, name: title, exact: true })).toBeVisible({
      timeout: 60_000,
    })
    await expect(page.getByText(field, { exact: true }).first()).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: /^Novo / })).toHaveCount(0)
    await shot(page, testInfo, `studio-${id}-1280`)
  }
  // The announcement does not exist in the bundled dataset: its pane names it, and no form title
  // says "Sem título" (Sanity's fallback for a document with no preview yet) or "Novo …".
  await page.goto(`${site.url}/studio/structure/announcement`)
  await expect(page.getByRole('textbox', { name: 'Texto' }).first()).toBeEditable({
    timeout: 60_000,
  })
  await expect(page.getByText('Aviso no topo do site', { exact: true }).first()).toBeVisible()
  await expect(page.getByText(/Sem título|Untitled/)).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 2, name: /^Novo / })).toHaveCount(0)
  await shot(page, testInfo, 'studio-announcement-1280')

  await page.goto(`${site.url}/studio/structure/campaignPage;campaignPage-onibus-rodoviarios`)
  await expect(page.getByRole('heading', { level: 2, name: /ônibus/i })).toBeVisible({
    timeout: 60_000,
  })
  await shot(page, testInfo, 'studio-campaign-page-1280')
  await page.goto(`${site.url}/studio/structure/article;article-lgpd-camera-na-cabine`)
  await expect(page.getByRole('heading', { level: 2, name: /LGPD/ })).toBeVisible({
    timeout: 60_000,
  })
  await shot(page, testInfo, 'studio-article-1280')
  expect(violations).toEqual([])
})

test('an administrator has Vision in the top bar', async ({ page }) => {
  test.setTimeout(120_000)
  await openStudio(page, administrator, ADMIN_TOKEN)
  await page.goto(`${site.url}/studio/structure`)
  await expect(page.getByRole('link', { name: 'Vision' }).first()).toBeVisible({ timeout: 60_000 })
})

test('a claim edited and published from the Studio’s button is live on the home page within the publish promise', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000)
  await openStudio(page)
  await page.goto(`${site.url}/studio/structure/claim;claim-accuracy`)
  const value = page.getByRole('textbox', { name: 'Valor' })
  await expect(value).toBeEditable({ timeout: 60_000 })
  await value.fill('99,4%')
  const publish = page.getByRole('button', { name: 'Publicar', exact: true })
  await expect(publish).toBeEnabled({ timeout: 30_000 })
  await publish.click()
  // The Studio says it is published once the listener has brought the change back.
  await expect(publish).toBeDisabled({ timeout: 30_000 })
  // Sanity sent the webhook (the double, as docs/content.md configures it), and from then on the
  // publish promise runs.
  const delivery = await webhookFor(request, 'claim-accuracy')
  expect(delivery).toMatchObject({ operation: 'update', status: 200 })
  await reachedBy(publishDeadline(delivery.sentAt), async () =>
    (await (await request.get(`${site.url}/`)).text()).includes('99,4%'),
  )
  await shot(page, testInfo, 'studio-claim-published-1280')
})

test('a campaign page duplicated from the Studio opens with its fields, is renamed, published and live within the publish promise', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000)
  await openStudio(page)
  await page.goto(`${site.url}/studio/structure/campaignPage;campaignPage-onibus-rodoviarios`)
  await expect(page.getByRole('textbox', { name: 'Endereço (slug)' })).toBeEditable({
    timeout: 60_000,
  })
  await page.getByRole('button', { name: 'Abrir ações do documento' }).click()
  await page.getByRole('menuitem', { name: /Duplicar/ }).click()
  // The copy, a draft only, opens with the original's fields, not as an empty form (the
  // stand-in reads drafts as the member sees them), and its edits reach the double, applied in
  // order after the create.
  await expect(page).not.toHaveURL(/campaignPage-onibus-rodoviarios/, { timeout: 30_000 })
  const id = /campaignPage;([\w-]+)/.exec(page.url())?.[1]
  expect(id).toBeTruthy()
  const title = page.getByRole('textbox', { name: /^Título/ })
  await expect(title).toHaveValue(/ônibus/i, { timeout: 30_000 })
  // At an address of its own: with the original's, the Studio's first check of the copy (still
  // running when the editor publishes) would cancel the publish.
  await expect(page.getByRole('textbox', { name: 'Endereço (slug)' })).toHaveValue(
    'onibus-rodoviarios-copia',
  )
  await title.fill('Ônibus executivos')
  await page.getByRole('textbox', { name: 'Endereço (slug)' }).fill('onibus-executivos')
  const saved = async () => {
    const params = new URLSearchParams({
      query:
        '*[_id == $id][0]{title, "slug": slug.current, "blocks": count(blocks), "variants": count(blocks[defined(experimentVariants)])}',
      $id: JSON.stringify(`drafts.${id}`),
      perspective: 'raw',
    })
    const answer = await request.get(`${lake.url}/v2025-02-19/data/query/production?${params}`, {
      headers: { authorization: 'Bearer test-read-token' },
    })
    return ((await answer.json()) as { result: unknown }).result
  }
  await expect
    .poll(saved, { timeout: 30_000 })
    .toMatchObject({ title: 'Ônibus executivos', slug: 'onibus-executivos' })
  // The original's experiment stays the original's: the copy has its blocks, not their variants.
  expect(await saved()).toMatchObject({ blocks: expect.any(Number), variants: 0 })
  expect(((await saved()) as { blocks: number }).blocks).toBeGreaterThan(1)
  // Published from the same button, the copy is a new page at its own address within the promise.
  await publishNewPage(page, request, {
    id: id!,
    path: '/p/onibus-executivos',
    text: 'Ônibus executivos',
  })
  await shot(page, testInfo, 'studio-duplicate-published-1280')
})

test('a campaign page created from the Studio’s "+" with a hero is published and live within the publish promise', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000)
  await openStudio(page)
  await page.goto(`${site.url}/studio/structure/campaignPage`)
  // The list's "+" (a link to the type's template; singletons have none: sanity.config.ts).
  await page.getByRole('link', { name: 'Página de campanha' }).click({ timeout: 60_000 })
  const title = page.getByRole('textbox', { name: /^Título/ })
  await expect(title).toBeEditable({ timeout: 30_000 })
  await expect(page).toHaveURL(/campaignPage;[^;/?]+/)
  const id = /campaignPage;([\w-]+)/.exec(page.url())?.[1] ?? ''
  expect(id).not.toBe('')
  await title.fill('Turismo fretado')
  // The page's first block, its hero: added from the blocks' menu and filled in its dialog.
  await page.getByRole('button', { name: 'Adicionar item...' }).click()
  await page.getByRole('menuitem', { name: 'Destaque', exact: true }).click()
  const hero = page.getByRole('dialog')
  await hero
    .getByRole('textbox', { name: 'Título principal' })
    .fill('Viagens de turismo com motoristas alertas')
  await hero
    .getByRole('textbox', { name: 'Descrição' })
    .fill('Detecção de fadiga e distração no celular do motorista, do embarque ao destino.')
  await hero.getByRole('textbox', { name: 'Texto' }).first().fill('Agendar demonstração')
  await hero.getByRole('textbox', { name: 'Endereço' }).first().fill('#contato')
  await shot(page, testInfo, 'studio-new-page-hero-1280')
  await page.keyboard.press('Escape')
  await page.getByRole('tab', { name: 'SEO e compartilhamento' }).click()
  await page
    .getByRole('textbox', { name: 'Descrição para buscadores' })
    .fill(
      'Vigia para frotas de turismo fretado: fadiga e distração detectadas no celular do motorista.',
    )
  // The Studio judges a publish on the last validation it finished, even one of an older value
  // (its validation store pairs those markers with the newest revision), here one without a hero
  // or an address: the address goes last, and the editor publishes once it has been checked.
  await page.getByRole('tab', { name: 'Conteúdo' }).click()
  const checked = page.waitForResponse(
    (answer) =>
      answer.url().includes('validation.path-is-free') &&
      new URL(answer.url()).searchParams.get('$slug') === '"turismo-fretado"',
  )
  await page.getByRole('textbox', { name: 'Endereço (slug)' }).fill('turismo-fretado')
  await checked
  await publishNewPage(page, request, {
    id,
    path: '/p/turismo-fretado',
    text: 'Viagens de turismo com motoristas alertas',
  })
  await shot(page, testInfo, 'studio-new-page-published-1280')
})

test('renaming a campaign page’s slug and publishing it redirects its old address', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000)
  await openStudio(page)
  await page.goto(`${site.url}/studio/structure/campaignPage;campaignPage-onibus-rodoviarios`)
  const slug = page.getByRole('textbox', { name: 'Endereço (slug)' })
  await expect(slug).toBeEditable({ timeout: 60_000 })
  await slug.fill('onibus-fretados')
  const publish = page.getByRole('button', { name: 'Publicar', exact: true })
  await expect(publish).toBeEnabled({ timeout: 30_000 })
  await publish.click()
  await expect(publish).toBeDisabled({ timeout: 30_000 })
  const delivery = await webhookFor(request, 'campaignPage-onibus-rodoviarios')
  expect(delivery).toMatchObject({ operation: 'update', status: 200 })
  await reachedBy(publishDeadline(delivery.sentAt), async () => {
    const old = await request.get(`${site.url}/p/onibus-rodoviarios`, { maxRedirects: 0 })
    return old.status() === 308 && old.headers().location?.endsWith('/p/onibus-fretados') === true
  })
  expect((await request.get(`${site.url}/p/onibus-fretados`)).status()).toBe(200)
  await shot(page, testInfo, 'studio-slug-renamed-1280')
})

test('a review link is created from the page’s menu, opens its draft, and is revoked', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000)
  await openStudio(page)
  await page.goto(`${site.url}/studio/structure/campaignPage;campaignPage-onibus-rodoviarios`)
  await page.getByRole('button', { name: 'Abrir ações do documento' }).click({ timeout: 60_000 })
  await page.getByRole('menuitem', { name: 'Criar link de revisão' }).click()
  const dialog = page.getByRole('dialog', { name: 'Link de revisão' })
  await dialog.getByRole('button', { name: 'Criar link' }).click()
  const link = dialog.getByRole('textbox', { name: 'Link de revisão', exact: true })
  await expect(link).toHaveValue(/\/revisao\//)
  const url = await link.inputValue()
  await shot(page, testInfo, 'studio-review-link-1280')
  expect((await request.get(url)).status()).toBe(200)
  // The page runs the bundled experiment: one more link shows its variant (?variante=).
  const variantLink = dialog.getByRole('textbox', { name: 'Link de revisão: Fadiga em tempo real' })
  await expect(variantLink).toHaveValue(`${url}?variante=titulo-onibus/tempo-real`)
  expect(await (await request.get(await variantLink.inputValue())).text()).toContain(
    TEMPO_REAL_HEADLINE,
  )
  await dialog.getByRole('button', { name: 'Revogar' }).click()
  await expect(dialog.getByText(/revogado/)).toBeVisible()
  await expect.poll(async () => (await request.get(url)).status(), { timeout: 10_000 }).toBe(404)
})

test('Presentation opens the home page in draft mode beside its document, and a click on the headline opens its field', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000)
  await openStudio(page)
  await page.goto(`${site.url}/studio/presentation`)
  // Presentation writes its preview secret (a mutation) before it frames /api/draft-mode/enable,
  // which checks it on the Content Lake: the frame is the home page in draft mode.
  const preview = page.frameLocator('iframe').first()
  await expect(preview.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 60_000 })
  await expect(preview.getByRole('link', { name: 'Modo rascunho: sair' })).toBeVisible()
  await expect(page.getByText('The presentation tool crashed')).toHaveCount(0)
  // The home page's document opens beside it, its headline field there to edit. As long as the
  // frame may take: on a loaded 2-core CI machine the form once took over 30 s to draw.
  const field = page.getByRole('textbox', { name: 'Título principal' })
  await expect(field).toBeVisible({ timeout: 60_000 })
  await expect(field).not.toBeFocused()
  // The headline carries its source (stega, from the double's Content Source Map): a click on it
  // in the preview focuses its field in the form.
  await preview.getByRole('heading', { level: 1 }).click()
  await expect(field).toBeFocused({ timeout: 15_000 })
  await shot(page, testInfo, 'studio-presentation-1280')
})

test('a variant is made the default from the experiment’s menu: every visitor gets its headline, the experiment ended', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000)
  await openStudio(page)
  await page.goto(`${site.url}/studio/structure/experiment;experiment-titulo-onibus`)
  await page.getByRole('button', { name: 'Abrir ações do documento' }).click({ timeout: 60_000 })
  await page.getByRole('menuitem', { name: 'Tornar uma versão padrão' }).click()
  const dialog = page.getByRole('dialog', { name: 'Tornar uma versão padrão' })
  await shot(page, testInfo, 'studio-experiment-promote-1280')
  const clicked = Date.now()
  await dialog.getByRole('button', { name: 'Tornar padrão: Fadiga em tempo real' }).click()
  await expect(dialog).toHaveCount(0, { timeout: 30_000 })
  // Published in one transaction: the page's hero has the headline and no variant left, the
  // experiment has its end.
  const query = async (groq: string) =>
    (
      (await (
        await request.get(
          `${lake.url}/v2025-02-19/data/query/production?query=${encodeURIComponent(groq)}`,
        )
      ).json()) as { result: unknown }
    ).result
  expect(
    await query(
      `*[_id == "campaignPage-onibus-rodoviarios"][0].blocks[0]{headline, "variants": coalesce(count(experimentVariants), 0)}`,
    ),
  ).toEqual({ headline: TEMPO_REAL_HEADLINE, variants: 0 })
  expect(await query(`defined(*[_id == "experiment-titulo-onibus"][0].visibleUntil)`)).toBe(true)
  // The site, after the publish webhook: the headline for every visitor, no variant named.
  const served = async (i: number) =>
    (
      await request.get(`${site.url}/p/onibus-fretados`, {
        headers: {
          'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.${i}.0 Safari/537.36`,
          'x-forwarded-for': `198.51.100.${i}`,
        },
      })
    ).text()
  const delivery = await webhookFor(request, 'campaignPage-onibus-rodoviarios', clicked)
  expect(delivery).toMatchObject({ operation: 'update', status: 200 })
  await reachedBy(publishDeadline(delivery.sentAt), async () => {
    const pages = await Promise.all([1, 2, 3, 4, 5, 6].map(served))
    return pages.every(
      (html) => html.includes(TEMPO_REAL_HEADLINE) && !html.includes('vigia:variant'),
    )
  })
})

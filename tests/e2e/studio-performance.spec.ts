import { expect, test, type Page, type Route, type TestInfo } from '@playwright/test'

import { NO_CAMPAIGN_KEY, type Report, type ReportRow } from '../../lib/analytics/report-schema'
import { SERVERS } from './servers'
import { signedInStudio, type StudioUser } from './studio-fixtures'

/*
 * The Studio's Desempenho tool and a campaign page's Desempenho tab, in a real browser at 1280 px,
 * on the lake build (a Sanity project configured: the Studio itself loads).
 *
 * The Studio talks to <project>.api.sanity.io, which this machine cannot reach: answered as
 * Sanity would for a signed-in administrator (tests/e2e/studio-fixtures.ts). /api/analytics is
 * answered here too, with fixed figures: what is under test is the Studio side (the token it
 * sends, the chart, the tables, the CSV), not the counting; tests/e2e/analytics.spec.ts drives the
 * tool once against the real endpoint. Screenshots are attached to the report.
 */

const SITE = SERVERS.lake.url
const LAKE = SERVERS.lakeDouble.url
const TOKEN = 'sk-editor-session-e2e'

const editor: StudioUser = {
  id: 'p-e2e',
  name: 'Editora E2E',
  email: 'editora@example.com',
  role: 'administrator',
  roles: [{ name: 'administrator', title: 'Administrator' }],
}

/** A row with every measure filled in (contacts and reading in proportion to its visitors). */
const row = (key: string, visits: number, visitors: number, leads: number): ReportRow => ({
  key,
  visits,
  visitors,
  leads,
  conversion: visitors ? Math.min(1, leads / visitors) : 0,
  downloads: Math.round(visitors * 0.01),
  whatsapp: Math.round(visitors * 0.031),
  phone: Math.round(visitors * 0.006) + 1,
  email: Math.round(visitors * 0.004) + 1,
  engagedSeconds: 20 + (visits % 97),
  scrollDepth: 35 + (visitors % 60),
})

/** One row per day of the period, a weekly rhythm, a little more in the current period. */
function days(from: string, to: string, scale: number): ReportRow[] {
  const rows: ReportRow[] = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 864e5) {
    const date = new Date(t)
    const weekday = date.getUTCDay()
    const visitors = Math.round((weekday === 0 || weekday === 6 ? 60 : 140) * scale)
    rows.push(
      row(
        date.toISOString().slice(0, 10),
        Math.round(visitors * 1.4),
        visitors,
        (t / 864e5) % 3 === 0 ? 4 : 2,
      ),
    )
  }
  return rows
}

const BREAKDOWNS: Record<string, ReportRow[]> = {
  page: [
    row('/', 2400, 1900, 31),
    row('/p/onibus-rodoviarios', 1300, 1010, 26),
    row('/conteudos/lgpd-camera-na-cabine', 640, 520, 4),
    row('/privacidade', 90, 80, 0),
  ],
  landing: [
    row('/', 1800, 1500, 30),
    row('/conteudos/lgpd-camera-na-cabine', 420, 400, 12),
    row('/p/onibus-rodoviarios', 980, 900, 19),
  ],
  campaign: [row('fretamento-2026', 1200, 930, 24), row(NO_CAMPAIGN_KEY, 3230, 2580, 37)],
  source: [
    row('google', 1800, 1450, 18),
    row('(direto)', 1500, 1190, 20),
    row('newsletter', 620, 480, 19),
    row('linkedin.com', 510, 390, 4),
  ],
  // by=material (issue 65): downloads only, no view counted under a material.
  material: [
    { ...row('checklist-lgpd', 0, 0, 0), downloads: 38 },
    { ...row('ebook-fadiga-2026', 0, 0, 0), downloads: 21 },
  ],
}

type Asked = { search: URLSearchParams; authorization: string | undefined }

async function answerAnalytics(page: Page, asked: Asked[]) {
  // The campaigns named in the link builder (issue 45).
  await page.route(`${SITE}/api/analytics/campaigns`, (route: Route) =>
    route.fulfill({ json: { campaigns: ['fretamento-2026', 'feira-do-transporte'] } }),
  )
  await page.route(`${SITE}/api/analytics?**`, async (route: Route) => {
    const url = new URL(route.request().url())
    const search = url.searchParams
    asked.push({ search, authorization: route.request().headers()['authorization'] })
    const from = search.get('from')!
    const to = search.get('to')!
    const by = search.get('by') as Report['by']
    const current = to >= new Date(Date.now() - 2 * 864e5).toISOString().slice(0, 10)
    const rows = by === 'day' ? days(from, to, current ? 1.15 : 1) : (BREAKDOWNS[by] ?? [])
    if (search.get('format') === 'csv')
      return route.fulfill({
        contentType: 'text/csv; charset=utf-8',
        body: [
          'key,visits,visitors,leads,conversion',
          ...rows.map((r) => `${r.key},${r.visits},${r.visitors},${r.leads},${r.conversion}`),
        ].join('\n'),
      })
    if (by === 'variant') return route.fulfill({ json: { ...VARIANTS, from, to } })
    return route.fulfill({ json: { from, to, by, rows } satisfies Report })
  })
}

/** by=variant (issue 51): the bundled experiment, judged, and an ended one with too little data. */
const judged = { chanceToBeatControl: null, expectedLoss: null, verdictMessage: null }
const VARIANTS: Report = {
  from: '',
  to: '',
  by: 'variant',
  rows: [
    { ...row('titulo-onibus/controle', 900, 700, 14), ...judged },
    {
      ...row('titulo-onibus/fadiga', 900, 690, 27),
      chanceToBeatControl: 0.9812,
      expectedLoss: 0.00004,
      verdictMessage: null,
    },
    { ...row('antigo/controle', 60, 50, 1), ...judged },
    {
      ...row('antigo/b', 60, 52, 2),
      ...judged,
      verdictMessage:
        'Ainda não há dados suficientes: cada versão precisa de ao menos 100 visitantes e 5 conversões.',
    },
  ],
  experiments: [
    {
      key: 'titulo-onibus',
      title: 'Título da página de ônibus',
      pagePath: '/p/onibus-rodoviarios',
      goal: 'leads',
      status: 'running',
      visibleFrom: null,
      visibleUntil: null,
      variants: [
        { key: 'controle', label: 'Do embarque ao desembarque' },
        { key: 'fadiga', label: 'Fadiga detectada em tempo real' },
      ],
    },
    {
      key: 'antigo',
      title: 'Título antigo',
      pagePath: '/',
      goal: 'contacts',
      status: 'ended',
      visibleFrom: '2026-01-01T00:00:00Z',
      visibleUntil: '2026-02-01T00:00:00Z',
      variants: [
        { key: 'controle', label: 'Padrão' },
        { key: 'b', label: 'Versão B' },
      ],
    },
  ],
}

/** A screenshot kept in the test's output folder and attached to the report. */
async function shot(page: Page, testInfo: TestInfo, name: string, fullPage = false) {
  const path = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path, fullPage })
  await testInfo.attach(name, { path, contentType: 'image/png' })
}

test.describe('the Studio: Desempenho', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('the tool shows the period, its comparison, the chart and the tables, and downloads a CSV with the editor token', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000)
    const asked: Asked[] = []
    await signedInStudio(page, { lake: LAKE, token: TOKEN, user: editor })
    await answerAnalytics(page, asked)
    await page.goto(`${SITE}/studio/desempenho`)
    await expect(page.getByRole('heading', { name: 'Desempenho do site' })).toBeVisible({
      timeout: 60_000,
    })
    await expect(page.getByRole('table', { name: 'Por página', exact: true })).toBeVisible({
      timeout: 30_000,
    })
    // The editor's own token, on every request.
    expect(asked.length).toBeGreaterThanOrEqual(6)
    expect(asked.every((request) => request.authorization === `Bearer ${TOKEN}`)).toBe(true)
    // A drawn chart: two lines (visitors, leads) over the 30 days.
    await expect(page.locator('.recharts-line')).toHaveCount(2)
    await expect(page.locator('.recharts-line-curve').first()).toHaveAttribute('d', /^M\S/)
    await expect(page.getByRole('group', { name: 'Conversão' })).toContainText('p.p.')
    await expect(
      page
        .getByRole('table', { name: 'Por página', exact: true })
        .getByRole('row', { name: /onibus-rodoviarios/ }),
    ).toContainText('2,6%')
    // The contact and reading columns, and the entry pages (issue 45).
    const table = page.getByRole('table', { name: 'Por página', exact: true })
    for (const column of ['WhatsApp', 'Telefone', 'E-mail', 'Tempo de leitura', 'Rolagem'])
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible()
    await expect(table.getByRole('row', { name: /onibus-rodoviarios/ })).toContainText('31')
    await expect(page.getByRole('table', { name: 'Por página de entrada' })).toContainText(
      '/conteudos/lgpd-camera-na-cabine',
    )
    // The materials' downloads, a table of their own (issue 65).
    await expect(page.getByRole('table', { name: 'Materiais', exact: true })).toContainText(
      'checklist-lgpd',
    )
    await shot(page, testInfo, 'desempenho-1280', true)
    // The campaign link builder: a named campaign's tagged link.
    await page.getByRole('textbox', { name: 'Nome da campanha' }).fill('Feira do Transporte')
    await expect(page.getByText(/utm_campaign=feira-do-transporte/)).toBeVisible()
    await expect(
      page.getByRole('button', { name: 'Usar a campanha fretamento-2026' }),
    ).toBeVisible()
    // The Studio scrolls the tool inside its own pane: each part brought to the top, then shot.
    const toTop = (name: string) =>
      page
        .getByRole('heading', { name, exact: true })
        .evaluate((heading) => heading.scrollIntoView({ block: 'start' }))
    await toTop('Por página')
    await shot(page, testInfo, 'desempenho-paginas-1280')
    await toTop('Por campanha')
    await shot(page, testInfo, 'desempenho-campanhas-1280')
    await toTop('Link de campanha')
    await shot(page, testInfo, 'desempenho-link-de-campanha-1280')

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Baixar CSV: por campanha' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(
      /^desempenho-campanhas-\d{4}-\d{2}-\d{2}-a-\d{4}-\d{2}-\d{2}\.csv$/,
    )
    expect(asked.at(-1)?.search.get('format')).toBe('csv')
    expect(asked.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`)

    await page.getByRole('button', { name: '7 dias' }).click()
    await expect(page.getByText(/\(7 dias\), comparado com/)).toBeVisible()
    await expect(page.getByRole('table', { name: 'Por página', exact: true })).toBeVisible()
    await shot(page, testInfo, 'desempenho-7-dias-1280')
  })

  test('the tool shows each experiment: its variants, the chance to beat the default, or not enough data (issue 51)', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000)
    const asked: Asked[] = []
    await signedInStudio(page, { lake: LAKE, token: TOKEN, user: editor })
    await answerAnalytics(page, asked)
    await page.goto(`${SITE}/studio/desempenho`)
    const running = page.getByRole('table', { name: 'Título da página de ônibus' })
    await expect(running).toBeVisible({ timeout: 60_000 })
    await expect(page.getByRole('heading', { name: 'Experimentos', exact: true })).toBeVisible()
    await expect(running.getByRole('row', { name: /Fadiga detectada/ })).toContainText('98%')
    await expect(running.getByRole('row', { name: /Do embarque/ })).toContainText('(padrão)')
    const ended = page.getByRole('table', { name: 'Título antigo' })
    await expect(ended.getByRole('row', { name: /Versão B/ })).toContainText(
      'Ainda não há dados suficientes',
    )
    await expect(page.getByText('Em andamento')).toBeVisible()
    await expect(page.getByText('Encerrado')).toBeVisible()
    await page
      .getByRole('heading', { name: 'Experimentos', exact: true })
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }))
    await shot(page, testInfo, 'desempenho-experimentos-1280')
  })

  test("a campaign page's Desempenho tab shows that page's days", async ({ page }, testInfo) => {
    test.setTimeout(120_000)
    const asked: Asked[] = []
    await signedInStudio(page, { lake: LAKE, token: TOKEN, user: editor })
    await answerAnalytics(page, asked)
    // The tab opened by its address (the pane's `view` parameter): with the Sanity API answered
    // here the document header never counts as ready, so its tabs stay disabled.
    await page.goto(
      `${SITE}/studio/structure/campaignPage;campaignPage-onibus-rodoviarios,view=desempenho`,
    )
    await expect(page.getByRole('tab', { name: 'Desempenho' })).toHaveAttribute(
      'aria-selected',
      'true',
      { timeout: 60_000 },
    )
    await expect(
      page.getByRole('heading', { name: 'Desempenho de /p/onibus-rodoviarios' }),
    ).toBeVisible({ timeout: 30_000 })
    await expect(page.getByRole('table', { name: 'Por dia' })).toBeVisible({ timeout: 30_000 })
    await expect(page.getByRole('table', { name: 'Como página de entrada' })).toBeVisible()
    expect(asked.every((request) => request.search.get('path') === '/p/onibus-rodoviarios')).toBe(
      true,
    )
    await expect(page.locator('.recharts-line')).toHaveCount(2)
    await shot(page, testInfo, 'desempenho-aba-1280', true)
    await page
      .getByRole('heading', { name: 'Por dia', exact: true })
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }))
    await shot(page, testInfo, 'desempenho-aba-tabelas-1280')
  })
})

import fs from 'node:fs'

import { request, type APIRequestContext, type Browser } from '@playwright/test'

import { skipWithout } from '../../scripts/lib/front-stack.cjs'
import { portFor } from '../../scripts/e2e-builds.cjs'
import type { Report } from '../../lib/analytics/report-schema'
import {
  expectThankYou,
  fillDemoForm,
  openDemoForm,
  submitButton,
  test,
  expect,
  waitLikeAPerson,
} from './demo-fixtures'
import { signedInStudio } from './studio-fixtures'
import {
  chrome,
  startAnalyticsStack,
  today,
  visitor as visitorOf,
  type AnalyticsStack,
  type Running,
} from './analytics-stack'

/*
 * Visit counts end to end (docs/analytics.md): real browsers with ordinary user agents load pages
 * through nginx (deploy/nginx.conf) in front of one instance of the lake build, whose visits and
 * leads go to its embedded PGlite. Headless Chrome's own user agent is a bot on purpose, so each
 * visitor here gets a desktop Chrome one. Runs in the Playwright project "analytics", in order.
 */

const missing = skipWithout(['nginx', 'openssl'])
test.skip(Boolean(missing), missing ?? '')
test.describe.configure({ mode: 'serial' })

const PORTS = {
  double: portFor(65).port,
  instance: portFor(13).port,
  https: portFor(68).port,
  http: portFor(69).port,
}
const READ_TOKEN = 'analytics-read-token-for-tests'
const MEMBER_TOKEN = 'studio-member-token'
const OUTSIDER_TOKEN = 'studio-outsider-token'
const CAMPAIGN_PAGE = '/p/onibus-rodoviarios'
/**
 * Beacons this instance accepts a minute from everyone (ANALYTICS_RATE_LIMIT_GLOBAL_PER_MINUTE):
 * above what the tests before the last send in a minute (about 230), reached by the last.
 */
const GLOBAL_PER_MINUTE = 300
const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'

let stack: AnalyticsStack
let lake: Running
let instance: Running
let front: Running

test.beforeAll(async () => {
  test.setTimeout(180_000)
  stack = await startAnalyticsStack({
    name: 'analytics',
    ports: PORTS,
    lakeArgs: [
      '--user',
      `${MEMBER_TOKEN}:u-editor:editor`,
      '--user',
      `${OUTSIDER_TOKEN}:u-outsider`,
    ],
    env: {
      ANALYTICS_READ_TOKEN: READ_TOKEN,
      // The cap test sends a few hundred beacons from this one address.
      ANALYTICS_RATE_LIMIT_PER_MINUTE: '1000',
      ANALYTICS_RATE_LIMIT_GLOBAL_PER_MINUTE: String(GLOBAL_PER_MINUTE),
      // The buffer is written on SIGTERM before the server exits (the shutdown test).
      NEXT_MANUAL_SIG_HANDLE: '1',
    },
  })
  ;({ lake, instance, front } = stack)
})

test.afterAll(async () => {
  await stack?.stop()
})

async function api(): Promise<APIRequestContext> {
  return request.newContext({ ignoreHTTPSErrors: true })
}

async function report(query: string, token = READ_TOKEN): Promise<Report> {
  const context = await api()
  try {
    const response = await context.get(`${front.url}/api/analytics?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(response.status(), await response.text()).toBe(200)
    return (await response.json()) as Report
  } finally {
    await context.dispose()
  }
}

/** Each row's first figures (issue 36's); analytics-reach.spec.ts checks the others. */
const rowsByKey = (r: Report) =>
  Object.fromEntries(
    r.rows.map(({ key, visits, visitors, leads, conversion }) => [
      key,
      { visits, visitors, leads, conversion },
    ]),
  )

/** A visitor of its own (tests/e2e/analytics-stack.ts), through nginx. */
function visitor(browser: Browser, userAgent: string) {
  return visitorOf(browser, userAgent, front.url)
}

async function waitForBeacon(
  page: import('@playwright/test').Page,
  action: () => Promise<unknown>,
) {
  const beacon = page.waitForResponse((response) => response.url().endsWith('/api/analytics/view'))
  await action()
  expect((await beacon).status()).toBe(204)
}

test('counts a scripted set of visits and leads exactly, without cookies, and no bot', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const day = today()

  // Visitor A lands on the home page from a newsletter, goes to the campaign page and asks for a
  // demo there, then opens the articles.
  const a = await visitor(browser, chrome(1))
  const pageA = await a.newPage()
  await waitForBeacon(pageA, () =>
    pageA.goto('/?utm_source=newsletter&utm_medium=email&utm_campaign=lancamento'),
  )
  // The form straight on the instance, as tests/e2e/front.spec.ts sends it: behind this test's
  // nginx (its own port) Next refuses a Server Action whose Origin names another port than
  // X-Forwarded-Host. Same machine, same browser: the same visitor, with the same tags.
  let openedAt = 0
  await waitForBeacon(pageA, async () => {
    openedAt = await openDemoForm(
      pageA,
      `${instance.url}${CAMPAIGN_PAGE}?utm_source=newsletter&utm_medium=email&utm_campaign=lancamento`,
    )
  })
  await fillDemoForm(pageA)
  await waitLikeAPerson(pageA, openedAt)
  await submitButton(pageA).click()
  await expectThankYou(pageA)
  await waitForBeacon(pageA, () => pageA.goto('/conteudos'))
  // No cookie and nothing in localStorage; the first touch in sessionStorage holds no identifier.
  expect(await a.cookies()).toEqual([])
  expect(await pageA.evaluate(() => window.localStorage.length)).toBe(0)
  expect(
    JSON.parse((await pageA.evaluate(() => sessionStorage.getItem('vigia:first-touch'))) ?? '{}'),
  ).toEqual({
    landing: '/',
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'lancamento',
    entered: 1,
  })

  // Visitor B goes straight to the campaign page, then to an address the site does not serve.
  const b = await visitor(browser, chrome(2))
  const pageB = await b.newPage()
  await waitForBeacon(pageB, () => pageB.goto(CAMPAIGN_PAGE))
  await waitForBeacon(pageB, () => pageB.goto('/nao-existe-esta-pagina'))

  // Headless Chrome as it comes: a bot, so its beacon is answered and not counted.
  const bot = await visitor(browser, HEADLESS)
  const pageBot = await bot.newPage()
  await waitForBeacon(pageBot, () => pageBot.goto('/'))

  await expect
    .poll(async () => rowsByKey(await report(`from=${day}&to=${day}&by=page`)), {
      timeout: 20_000,
      intervals: [1000],
    })
    .toEqual({
      '/': { visits: 1, visitors: 1, leads: 0, conversion: 0 },
      [CAMPAIGN_PAGE]: { visits: 2, visitors: 2, leads: 1, conversion: 0.5 },
      '/conteudos': { visits: 1, visitors: 1, leads: 0, conversion: 0 },
      '(outras)': { visits: 1, visitors: 1, leads: 0, conversion: 0 },
    })
  const campaigns = rowsByKey(await report(`from=${day}&to=${day}&by=campaign`))
  expect(campaigns.lancamento).toEqual({ visits: 3, visitors: 1, leads: 1, conversion: 1 })
  expect(campaigns['(sem campanha)']).toEqual({ visits: 2, visitors: 1, leads: 0, conversion: 0 })
  const sources = rowsByKey(await report(`from=${day}&to=${day}&by=source`))
  expect(sources.newsletter).toEqual({ visits: 3, visitors: 1, leads: 1, conversion: 1 })
  const days = rowsByKey(await report(`from=${day}&to=${day}&by=day`))
  expect(days).toEqual({ [day]: { visits: 5, visitors: 2, leads: 1, conversion: 0.5 } })
  const onePage = rowsByKey(await report(`from=${day}&to=${day}&by=day&path=${CAMPAIGN_PAGE}`))
  expect(onePage).toEqual({ [day]: { visits: 2, visitors: 2, leads: 1, conversion: 0.5 } })
  await Promise.all([a.close(), b.close(), bot.close()])
})

test('a replayed beacon counts once, and hostile bodies, methods and types get a 4xx', async () => {
  const context = await api()
  const day = today()
  const before = rowsByKey(await report(`from=${day}&to=${day}&by=page`))['/calculadora']
  const beacon = (data: unknown, headers: Record<string, string> = {}) =>
    context.post(`${front.url}/api/analytics/view`, {
      headers: { 'content-type': 'application/json', 'user-agent': chrome(3), ...headers },
      data: typeof data === 'string' ? data : JSON.stringify(data),
    })
  try {
    // Through nginx, which lets a burst of 20 through on /api/: all answered at once, one counted.
    const answers = []
    for (let i = 0; i < 10; i++) answers.push((await beacon({ path: '/calculadora' })).status())
    expect(answers.every((status) => status === 204)).toBe(true)

    expect((await beacon('{"path":"/"}', { 'content-type': 'text/plain' })).status()).toBe(415)
    expect((await beacon({ path: '/', pad: 'x'.repeat(3000) })).status()).toBe(413)
    expect((await beacon('not json')).status()).toBe(400)
    const get = await context.get(`${front.url}/api/analytics/view`)
    expect(get.status()).toBe(405)
    const answer = await beacon({ path: '/' })
    expect(answer.headers()['set-cookie']).toBeUndefined()
  } finally {
    await context.dispose()
  }
  await expect
    .poll(
      async () => rowsByKey(await report(`from=${day}&to=${day}&by=page`))['/calculadora']?.visits,
      { timeout: 20_000, intervals: [1000] },
    )
    .toBe((before?.visits ?? 0) + 1)
})

test('campaign values past 200 distinct a day count under (outras)', async () => {
  test.setTimeout(90_000)
  const day = today()
  // Straight to the instance: nginx holds one address to 5 API requests a second.
  for (let i = 0; i < 205; i++) {
    const response = await fetch(`${instance.url}/api/analytics/view`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': chrome(100 + i) },
      body: JSON.stringify({ path: '/', utm_campaign: `flood-${i}-${'x'.repeat(150)}` }),
    })
    expect(response.status).toBe(204)
  }
  await expect
    .poll(
      async () => {
        const rows = (await report(`from=${day}&to=${day}&by=campaign`)).rows
        return {
          flood: rows.filter((row) => row.key.startsWith('flood-')).length,
          longest: Math.max(...rows.map((row) => row.key.length)),
          others: rows.find((row) => row.key === '(outras)')?.visits ?? 0,
        }
      },
      { timeout: 20_000, intervals: [1000] },
    )
    // lancamento and (sem campanha) are two of the day's 200.
    .toEqual({ flood: 198, longest: 100, others: 7 })
})

test('refuses the figures without a valid token, answers 403 to a non-member, serves CSV', async () => {
  const context = await api()
  const day = today()
  const url = `${front.url}/api/analytics?from=${day}&to=${day}&by=page`
  try {
    const refusals: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: 'Basic x' },
    ]
    for (const headers of refusals) {
      const response = await context.get(url, { headers })
      expect(response.status()).toBe(401)
      expect(((await response.json()) as { error: string }).error).toMatch(/token/i)
    }
    const outsider = await context.get(url, {
      headers: { authorization: `Bearer ${OUTSIDER_TOKEN}` },
    })
    expect(outsider.status()).toBe(403)
    expect(((await outsider.json()) as { error: string }).error).toContain('não é membro')
    expect(
      (await report(`from=${day}&to=${day}&by=page`, MEMBER_TOKEN)).rows.length,
    ).toBeGreaterThan(0)

    const bad = await context.get(`${front.url}/api/analytics?from=ontem&to=${day}&by=page`, {
      headers: { authorization: `Bearer ${READ_TOKEN}` },
    })
    expect(bad.status()).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toContain('AAAA-MM-DD')

    const csv = await context.get(`${url}&format=csv`, {
      headers: { authorization: `Bearer ${READ_TOKEN}` },
    })
    expect(csv.status()).toBe(200)
    expect(csv.headers()['content-type']).toContain('text/csv')
    // For a spreadsheet in pt-BR (issue 45): BOM, ';', decimal comma.
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toMatch(/^Página;Visitas;Visitantes;Leads;Conversão;/)
    expect(lines.some((line) => line.startsWith(`${CAMPAIGN_PAGE};2;2;1;0,5;`))).toBe(true)
  } finally {
    await context.dispose()
  }
})

test('the Studio’s Desempenho tool reads the real /api/analytics with the editor’s token, and downloads its CSV', async ({
  page,
}) => {
  test.setTimeout(120_000)
  // tests/e2e/studio-performance.spec.ts drives the tool against fixed figures; here once against
  // the endpoint itself (its checks of the token with Sanity, its CSV's \r\n), on this
  // instance's own Studio, whose Sanity API is answered from this spec's Content Lake double.
  const answers: number[] = []
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/analytics') answers.push(response.status())
  })
  await signedInStudio(page, {
    lake: lake.url,
    token: MEMBER_TOKEN,
    user: {
      id: 'u-editor',
      name: 'Editora',
      email: 'editora@example.com',
      role: 'editor',
      roles: [{ name: 'editor', title: 'Editor' }],
    },
  })
  await page.goto(`${instance.url}/studio/desempenho`)
  await expect(page.getByRole('heading', { name: 'Desempenho do site' })).toBeVisible({
    timeout: 60_000,
  })
  await expect(
    page
      // exact: "Por página de entrada" (issue 45) has the page too.
      .getByRole('table', { name: 'Por página', exact: true })
      .getByRole('row', { name: /onibus-rodoviarios/ }),
  ).toBeVisible({ timeout: 30_000 })
  expect(answers.length).toBeGreaterThanOrEqual(1)
  expect(answers.every((status) => status === 200)).toBe(true)

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Baixar CSV: por página', exact: true }).click()
  const text = fs.readFileSync((await (await download).path())!, 'utf8')
  // The real endpoint's CSV, as a pt-BR spreadsheet reads it (issue 45): byte-order mark, ';',
  // decimal comma, CRLF.
  expect(text.startsWith('\uFEFF')).toBe(true)
  const lines = text.slice(1).trimEnd().split('\r\n')
  expect(lines[0]!.split(';').slice(0, 5)).toEqual([
    'Página',
    'Visitas',
    'Visitantes',
    'Leads',
    'Conversão',
  ])
  const row = lines.find((line) => line.startsWith(`${CAMPAIGN_PAGE};`))
  expect(row?.split(';').slice(0, 5)).toEqual([CAMPAIGN_PAGE, '2', '2', '1', '0,5'])
})

test('counts visitors and leads by the experiment variant each page named, and a beacon naming a variant not running nowhere', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const day = today()
  const byVariant = async () => rowsByKey(await report(`from=${day}&to=${day}&by=variant`))
  const before = await byVariant()
  // After the tests that check the first test's figures by page. Visitors of their own on the
  // bundled experiment's page (docs/experiments.md), each credited with the variant its page
  // named. Each from an address of its own, straight to the instance (which trusts one proxy hop,
  // so the address is the X-Forwarded-For sent): one address holds one share of an experiment,
  // and through nginx every visitor here would be 127.0.0.1.
  const ownAddress = (n: number) =>
    browser.newContext({
      userAgent: chrome(n),
      baseURL: instance.url,
      extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${n}` },
    })
  const served: string[] = []
  for (const n of [21, 22, 23, 24, 25, 26]) {
    const context = await ownAddress(n)
    const page = await context.newPage()
    await waitForBeacon(page, () => page.goto(CAMPAIGN_PAGE))
    served.push((await page.locator('meta[name="vigia:variant"]').getAttribute('content')) ?? '')
    await context.close()
  }
  expect(served.every((id) => /^titulo-onibus\/(controle|tempo-real)$/.test(id))).toBe(true)
  // One lead, from the form on the instance itself (as the first test sends it), credited to the
  // variant of the page it was sent from.
  const leadVisitor = await ownAddress(27)
  const leadPage = await leadVisitor.newPage()
  let openedAt = 0
  await waitForBeacon(leadPage, async () => {
    openedAt = await openDemoForm(leadPage, `${instance.url}${CAMPAIGN_PAGE}`)
  })
  const leadVariant =
    (await leadPage.locator('meta[name="vigia:variant"]').getAttribute('content')) ?? ''
  await fillDemoForm(leadPage)
  await waitLikeAPerson(leadPage, openedAt)
  await submitButton(leadPage).click()
  await expectThankYou(leadPage)
  await leadVisitor.close()
  // A beacon naming a variant no experiment runs: answered, counted nowhere.
  const context = await api()
  try {
    const forged = await context.post(`${front.url}/api/analytics/view`, {
      headers: { 'content-type': 'application/json', 'user-agent': chrome(28) },
      data: JSON.stringify({ path: CAMPAIGN_PAGE, variant: 'titulo-onibus/inventada' }),
    })
    expect(forged.status()).toBe(204)
  } finally {
    await context.dispose()
  }

  const expected = (id: string) => ({
    visitors:
      (before[id]?.visitors ?? 0) +
      served.filter((entry) => entry === id).length +
      (leadVariant === id ? 1 : 0),
    leads: (before[id]?.leads ?? 0) + (leadVariant === id ? 1 : 0),
  })
  await expect
    .poll(
      async () => {
        const rows = await byVariant()
        return Object.fromEntries(
          ['titulo-onibus/controle', 'titulo-onibus/tempo-real'].map((id) => [
            id,
            { visitors: rows[id]?.visitors ?? 0, leads: rows[id]?.leads ?? 0 },
          ]),
        )
      },
      { timeout: 20_000, intervals: [1000] },
    )
    .toEqual({
      'titulo-onibus/controle': expected('titulo-onibus/controle'),
      'titulo-onibus/tempo-real': expected('titulo-onibus/tempo-real'),
    })
  expect(Object.keys(await byVariant())).not.toContain('titulo-onibus/inventada')
})

test('the buffer is written when the server stops', async ({ browser }) => {
  test.setTimeout(120_000)
  const day = today()
  const visits = async () =>
    rowsByKey(await report(`from=${day}&to=${day}&by=page`))['/conteudos']!.visits
  let before = await visits()
  // A visit still in the buffer when the server is stopped: if the periodic write (every 10 s)
  // took it first, it was not the shutdown's, so try another.
  for (let attempt = 1; ; attempt++) {
    const c = await visitor(browser, chrome(4 + attempt * 1000))
    const page = await c.newPage()
    await waitForBeacon(page, () => page.goto('/conteudos'))
    await c.close()
    const now = await visits()
    if (now === before) break
    expect(now, 'the periodic write took the visit').toBe(before + 1)
    expect(attempt, 'a visit left in the buffer before the periodic write').toBeLessThan(4)
    before = now
  }
  // At once: only the shutdown can write it now.
  instance = await stack.restartInstance()
  expect(await visits()).toBe(before + 1)
})

test('past the instance’s allowance a minute, a beacon is answered 429 in Portuguese and not counted', async () => {
  test.setTimeout(120_000)
  const day = today()
  const visits = async () =>
    rowsByKey(await report(`from=${day}&to=${day}&by=page`))['/calculadora']?.visits ?? 0
  const before = await visits()
  // Straight to the instance (nginx holds an address to 5 API requests a second), each a visitor
  // of its own, all from one address below its own allowance: the instance's ceiling (just
  // restarted above, so its minute holds these only).
  const statuses: number[] = []
  let refusal = ''
  for (let i = 0; i < GLOBAL_PER_MINUTE + 5; i++) {
    const response = await fetch(`${instance.url}/api/analytics/view`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': chrome(5000 + i) },
      body: JSON.stringify({ path: '/calculadora' }),
    })
    statuses.push(response.status)
    if (response.status === 429) refusal = await response.text()
    else await response.arrayBuffer()
  }
  expect(statuses).toEqual([...Array(GLOBAL_PER_MINUTE).fill(204), ...Array(5).fill(429)])
  expect(refusal).toContain('Muitas visitas registradas')
  await expect.poll(visits, { timeout: 20_000, intervals: [1000] }).toBe(before + GLOBAL_PER_MINUTE)
})

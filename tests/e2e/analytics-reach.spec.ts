import { request, type Browser, type Page } from '@playwright/test'

import { skipWithout } from '../../scripts/lib/front-stack.cjs'
import { portFor } from '../../scripts/e2e-builds.cjs'
import type { Report, ReportRow } from '../../lib/analytics/report-schema'
import {
  expectThankYou,
  fillDemoForm,
  openDemoForm,
  submitButton,
  test,
  expect,
  waitLikeAPerson,
} from './demo-fixtures'
import {
  chrome,
  startAnalyticsStack,
  today,
  visitor as visitorOf,
  type AnalyticsStack,
  type Running,
} from './analytics-stack'

/*
 * What issue 45 added to the visit counts, end to end (docs/analytics.md): real browsers through
 * nginx (deploy/nginx.conf) in front of one instance of the lake build, visits and leads in its
 * embedded PGlite. Entry pages and leads credited to them, a lead from /calculadora, contact-link
 * clicks, reading time and scroll depth, a real campaign after 300 invented ones, a beacon with a
 * lone surrogate that must not stop the counting, and the CSV as a pt-BR Excel splits it. Its own
 * servers (ports 90-93), run in order in the Playwright project "reach".
 */

const missing = skipWithout(['nginx', 'openssl'])
test.skip(Boolean(missing), missing ?? '')
test.describe.configure({ mode: 'serial' })

const PORTS = {
  double: portFor(90).port,
  instance: portFor(91).port,
  https: portFor(92).port,
  http: portFor(93).port,
}
const READ_TOKEN = 'analytics-read-token-for-reach'
const ARTICLE = '/conteudos/como-o-celular-detecta-fadiga'
const READ_ARTICLE = '/conteudos/lgpd-camera-na-cabine'

let stack: AnalyticsStack
let instance: Running
let front: Running

test.beforeAll(async () => {
  test.setTimeout(180_000)
  stack = await startAnalyticsStack({
    name: 'analytics-reach',
    ports: PORTS,
    env: {
      ANALYTICS_READ_TOKEN: READ_TOKEN,
      // The campaign test sends 300 beacons from this one address.
      ANALYTICS_RATE_LIMIT_PER_MINUTE: '5000',
      ANALYTICS_FLUSH_INTERVAL_MS: '1000',
    },
  })
  ;({ instance, front } = stack)
  // The first page render warms the instance before any beacon is sent to it directly.
  expect((await fetchAgain(`${instance.url}/`)).status).toBe(200)
})

test.afterAll(async () => {
  await stack?.stop()
})

async function get(query: string) {
  const context = await request.newContext({ ignoreHTTPSErrors: true })
  try {
    const response = await context.get(`${front.url}/api/analytics?${query}`, {
      headers: { authorization: `Bearer ${READ_TOKEN}` },
    })
    expect(response.status(), await response.text()).toBe(200)
    return { body: await response.body(), type: response.headers()['content-type'] ?? '' }
  } finally {
    await context.dispose()
  }
}

async function rows(by: Report['by']): Promise<Record<string, ReportRow>> {
  const day = today()
  const report = JSON.parse((await get(`from=${day}&to=${day}&by=${by}`)).body.toString()) as Report
  return Object.fromEntries(report.rows.map((row) => [row.key, row]))
}

/** A visitor of its own (tests/e2e/analytics-stack.ts), through nginx unless told otherwise. */
function visitor(browser: Browser, userAgent: string, baseURL = front.url) {
  return visitorOf(browser, userAgent, baseURL)
}

function beaconAnswered(page: Page, event?: string) {
  return page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/analytics/view') &&
      (event === undefined
        ? !/"event":"(contact|read)"/.test(response.request().postData() ?? '')
        : (response.request().postData() ?? '').includes(`"event":"${event}"`)),
  )
}

async function send(page: Page, action: () => Promise<unknown>, event?: string) {
  const beacon = beaconAnswered(page, event)
  await action()
  expect((await beacon).status()).toBe(204)
}

/**
 * Node's fetch keeps connections alive and reuses an idle one; the server closes one idle for
 * 5 s, and a request sent on it just then is reset before the server reads it. Such a request
 * (never answered, so never counted) is sent again, once, on a new connection.
 */
async function fetchAgain(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw error
    return fetch(url, init)
  }
}

/**
 * Straight to the instance: nginx holds one address to 5 API requests a second. `address`: the
 * visitor's, as a proxy in front would write it (the instance trusts one hop).
 */
function beacon(body: string, userAgent: string, address?: string) {
  return fetchAgain(`${instance.url}/api/analytics/view`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': userAgent,
      ...(address ? { 'x-forwarded-for': address } : {}),
    },
    body,
  })
}

test('a beacon with a lone surrogate does not stop the counting: the views after it are counted', async ({
  browser,
}) => {
  // "x\ud800" as JSON text: the escape JSON.parse turns into a lone surrogate, which PostgreSQL
  // refuses in jsonb. On the old code the batch holding it stayed first in the queue forever.
  expect((await beacon('{"path":"/","utm_campaign":"x\\ud800"}', chrome(1))).status).toBe(204)
  expect(
    (await beacon(`{"path":"/","utm_source":"${'a'.repeat(99)}\\ud83d\\ude00"}`, chrome(2))).status,
  ).toBe(204)
  const a = await visitor(browser, chrome(3))
  const page = await a.newPage()
  await send(page, () => page.goto('/conteudos'))
  await expect
    .poll(async () => (await rows('page'))['/conteudos']?.visits, { timeout: 20_000 })
    .toBe(1)
  const campaigns = await rows('campaign')
  expect(campaigns.x?.visits).toBe(1)
  await a.close()
})

test('an article visit whose lead is sent on the home page counts on the article as entry page and on its campaign; a lead from /calculadora counts there', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  // These two visitors browse the instance itself, as tests/e2e/analytics.spec.ts sends its form:
  // behind this test's nginx (a port of its own) Next refuses a Server Action whose Origin names
  // another port than X-Forwarded-Host, and the first touch lives in one origin's sessionStorage.
  const a = await visitor(browser, chrome(10), instance.url)
  const page = await a.newPage()
  await send(page, () =>
    page.goto(`${ARTICLE}?utm_source=instagram&utm_medium=social&utm_campaign=artigo-fadiga`),
  )
  let openedAt = 0
  await send(page, async () => {
    openedAt = await openDemoForm(page, '/')
  })
  await fillDemoForm(page)
  await waitLikeAPerson(page, openedAt)
  await submitButton(page).click()
  await expectThankYou(page)
  // The first touch in sessionStorage: tags, entry page, no identifier.
  expect(
    JSON.parse((await page.evaluate(() => sessionStorage.getItem('vigia:first-touch'))) ?? '{}'),
  ).toEqual({
    landing: ARTICLE,
    utm_source: 'instagram',
    utm_medium: 'social',
    utm_campaign: 'artigo-fadiga',
    entered: 1,
  })
  expect(await a.cookies()).toEqual([])

  const b = await visitor(browser, chrome(11), instance.url)
  const calculator = await b.newPage()
  let openedB = 0
  await send(calculator, async () => {
    openedB = await openDemoForm(calculator, '/calculadora?frota=80')
  })
  await fillDemoForm(calculator, {
    name: 'Joana Lima',
    email: 'joana@frota.com.br',
    company: 'Frota Sul',
    phone: '(51) 99876-5432',
  })
  await waitLikeAPerson(calculator, openedB)
  await submitButton(calculator).click()
  await expectThankYou(calculator)

  await expect
    .poll(async () => (await rows('landing'))[ARTICLE], { timeout: 20_000 })
    .toMatchObject({ visits: 1, visitors: 1, leads: 1 })
  expect((await rows('campaign'))['artigo-fadiga']).toMatchObject({ visitors: 1, leads: 1 })
  expect((await rows('source')).instagram).toMatchObject({ leads: 1 })
  const pages = await rows('page')
  expect(pages['/']).toMatchObject({ leads: 1 })
  expect(pages[ARTICLE]).toMatchObject({ visits: 1, leads: 0 })
  expect(pages['/calculadora']).toMatchObject({ visits: 1, visitors: 1, leads: 1 })
  expect((await rows('landing'))['/calculadora']).toMatchObject({ visits: 1, leads: 1 })
  await Promise.all([a.close(), b.close()])
})

test('WhatsApp, phone and e-mail clicks count the visitors who clicked: five clicks by one count once', async ({
  browser,
}) => {
  const c = await visitor(browser, chrome(20))
  const page = await c.newPage()
  await send(page, () => page.goto('/?utm_campaign=contato-direto'))
  // The links lead off the site (WhatsApp's, the phone's and the mail program): kept here.
  await page.evaluate(() => document.addEventListener('click', (event) => event.preventDefault()))
  const contact = page.getByRole('complementary', { name: 'Outras formas de contato' })
  const whatsapp = contact.locator('a[href^="https://wa.me/"]')
  for (let i = 0; i < 5; i++) await send(page, () => whatsapp.click(), 'contact')
  await send(page, () => contact.locator('a[href^="tel:"]').click(), 'contact')
  await send(page, () => contact.locator('a[href^="mailto:"]').click(), 'contact')
  await expect
    .poll(async () => (await rows('page'))['/'], { timeout: 20_000 })
    .toMatchObject({ whatsapp: 1, phone: 1, email: 1 })
  expect((await rows('campaign'))['contato-direto']).toMatchObject({
    visitors: 1,
    whatsapp: 1,
    phone: 1,
    email: 1,
  })
  expect((await rows('landing'))['/']).toMatchObject({ whatsapp: 1 })
  await c.close()
})

test('a view scrolled to the bottom over about 8 s reads as about 8 s and 100%', async ({
  browser,
}) => {
  test.setTimeout(60_000)
  const d = await visitor(browser, chrome(30))
  const page = await d.newPage()
  await send(page, () => page.goto(READ_ARTICLE))
  const started = Date.now()
  for (let step = 1; step <= 8; step++) {
    await page.evaluate(
      (fraction) => window.scrollTo(0, document.documentElement.scrollHeight * fraction),
      step / 8,
    )
    await page.waitForTimeout(started + step * 1000 - Date.now())
  }
  // The visitor switches to another tab: the page is hidden, as the browser tells it.
  await send(
    page,
    () =>
      page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
        Object.defineProperty(document, 'hidden', { value: true, configurable: true })
        document.dispatchEvent(new Event('visibilitychange'))
      }),
    'read',
  )
  await expect
    .poll(async () => (await rows('page'))[READ_ARTICLE]?.engagedSeconds, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(7)
  const read = (await rows('page'))[READ_ARTICLE]!
  expect(read.engagedSeconds).toBeLessThanOrEqual(11)
  expect(read.scrollDepth).toBe(100)
  await d.close()
})

test('300 invented campaigns, then a real one visitors from four addresses arrive from: reported under its own name', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const answers = await Promise.all(
    Array.from({ length: 300 }, (_, i) =>
      beacon(JSON.stringify({ path: '/', utm_campaign: `inventada-${i}` }), chrome(1000 + i)),
    ),
  )
  expect(answers.every((answer) => answer.status === 204)).toBe(true)
  // Let the flood reach the database first: it is the day's first 200 (and more).
  await expect
    .poll(async () => (await rows('campaign'))['(outras)']?.visits ?? 0, { timeout: 20_000 })
    .toBeGreaterThan(90)
  // One client rotating its user agent is one address: it promotes nothing (issue 49).
  for (let i = 0; i < 3; i++)
    expect(
      (await beacon(JSON.stringify({ path: '/', utm_campaign: 'rotacao' }), chrome(70 + i))).status,
    ).toBe(204)
  // Four people, each from an address of their own: straight to the instance, which reads the
  // address a proxy in front would have written (through the local nginx, every one is 127.0.0.1).
  // Four, not three: two addresses share one of the day's 256 address buckets about 1% of the time.
  for (let i = 0; i < 4; i++) {
    const real = await browser.newContext({
      userAgent: chrome(40 + i),
      baseURL: instance.url,
      extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${40 + i}` },
    })
    const page = await real.newPage()
    await send(page, () => page.goto('/?utm_source=newsletter&utm_campaign=black-friday-real'))
    await real.close()
  }
  await expect
    .poll(async () => (await rows('campaign'))['black-friday-real'], { timeout: 20_000 })
    .toMatchObject({ visits: 4, visitors: 4 })
  expect((await rows('campaign')).rotacao).toBeUndefined()
})

test('the CSV opens in columns as a pt-BR Excel splits it, and no cell starts a formula', async () => {
  // A hostile campaign value, from four visitors at four addresses so that it has a row of its own.
  for (let i = 0; i < 4; i++)
    expect(
      (
        await beacon(
          JSON.stringify({ path: '/', utm_campaign: 'x;=1+1;' }),
          chrome(60 + i),
          `198.51.100.${60 + i}`,
        )
      ).status,
    ).toBe(204)
  await expect
    .poll(async () => (await rows('campaign'))['x;=1+1;']?.visitors, { timeout: 20_000 })
    .toBe(4)
  const day = today()
  const { body, type } = await get(`from=${day}&to=${day}&by=campaign&format=csv`)
  expect(type).toContain('text/csv')
  // UTF-8 with its byte-order mark: Excel then reads "Conversão" as written.
  expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  const text = body.toString('utf8').slice(1)
  const lines = text.trimEnd().split('\r\n')
  // Excel (pt-BR) splits on ';' and honours double quotes.
  const split = (line: string) => {
    const cells: string[] = []
    let cell = ''
    let quoted = false
    for (let i = 0; i < line.length; i++) {
      const char = line[i]!
      if (quoted && char === '"' && line[i + 1] === '"') {
        cell += '"'
        i++
      } else if (char === '"') {
        quoted = !quoted
      } else if (char === ';' && !quoted) {
        cells.push(cell)
        cell = ''
      } else {
        cell += char
      }
    }
    return [...cells, cell]
  }
  const table = lines.map(split)
  expect(table[0]).toEqual([
    'Campanha',
    'Visitas',
    'Visitantes',
    'Leads',
    'Conversão',
    'Downloads de materiais',
    'WhatsApp',
    'Telefone',
    'E-mail',
    'Tempo médio de leitura (s)',
    'Rolagem média (%)',
  ])
  expect(table.every((cells) => cells.length === 11)).toBe(true)
  const hostile = table.find((cells) => cells[0]!.includes('1+1'))!
  expect(hostile[0]).toBe("x;'=1+1;")
  // Decimals with a comma.
  expect(table.find((cells) => cells[0] === 'artigo-fadiga')![4]).toBe('1')
  expect(table.slice(1).some((cells) => /^0,\d+$/.test(cells[4]!))).toBe(true)
  // Split anywhere a separator is (quotes ignored, as a careless reader would): no cell starts
  // a formula.
  for (const line of lines)
    for (const cell of line.split(/[;,]/))
      expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/)
})

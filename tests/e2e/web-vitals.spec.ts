import { request, test, expect, type BrowserContext, type Page } from '@playwright/test'

import { skipWithout } from '../../scripts/lib/front-stack.cjs'
import { portFor } from '../../scripts/e2e-builds.cjs'
import type { Report } from '../../lib/analytics/report-schema'
import { chrome, startAnalyticsStack, today, visitor, type AnalyticsStack } from './analytics-stack'

/*
 * The speed real visitors live (issue 67, docs/analytics.md "Speed as visitors live it"): real
 * Chromium loads pages of the production (lake) build through nginx, is tapped, scrolled and
 * left; the beacon's web-vitals chunk measures the load and the figures reach the report's p75.
 * Headless Chrome's own user agent is a bot, so each visitor gets a desktop Chrome one.
 */

const missing = skipWithout(['nginx', 'openssl'])
test.skip(Boolean(missing), missing ?? '')
test.describe.configure({ mode: 'serial' })

const PORTS = {
  double: portFor(120).port,
  instance: portFor(121).port,
  https: portFor(122).port,
  http: portFor(123).port,
}
const READ_TOKEN = 'vitals-read-token-for-tests'

let stack: AnalyticsStack

test.beforeAll(async () => {
  test.setTimeout(180_000)
  stack = await startAnalyticsStack({
    name: 'vitals',
    ports: PORTS,
    env: { ANALYTICS_READ_TOKEN: READ_TOKEN },
  })
})

test.afterAll(async () => {
  await stack?.stop()
})

async function pageReport(): Promise<Report> {
  const context = await request.newContext({ ignoreHTTPSErrors: true })
  try {
    const day = today()
    const response = await context.get(
      `${stack.front.url}/api/analytics?from=${day}&to=${day}&by=page`,
      { headers: { authorization: `Bearer ${READ_TOKEN}` } },
    )
    expect(response.status(), await response.text()).toBe(200)
    return (await response.json()) as Report
  } finally {
    await context.dispose()
  }
}

/** Opens `path` as a visitor would and waits until its view is counted and web-vitals loaded. */
async function open(page: Page, path: string) {
  const view = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/analytics/view') &&
      !String(response.request().postData()).includes('"event"'),
  )
  // The beacon imports web-vitals once it sends the view: its own chunk, never first-load JS.
  const chunk = page.waitForResponse(
    async (response) =>
      response.url().includes('/_next/static/') &&
      response.url().endsWith('.js') &&
      (await response.text()).includes('largest-contentful-paint'),
  )
  await page.goto(path)
  expect((await view).status()).toBe(204)
  await chunk
}

/**
 * Leaves the page as a visitor does (closes its tab): the page is hidden, so the beacon sends the
 * view's reading with its figures, a keepalive request that outlives the page (but not its
 * browser context, so those stay open until the report is read).
 */
async function leave(page: Page) {
  await page.close({ runBeforeUnload: true })
}

test("reports each visited page's p75 LCP, INP and CLS from real Chromium's own measures", async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const contexts: BrowserContext[] = []

  // Three visitors on the home page and two on the calculator: each opens the page, taps
  // something (an interaction: INP), scrolls, and closes its tab.
  for (const [n, path] of [
    [1, '/'],
    [2, '/'],
    [3, '/'],
    [4, '/calculadora'],
    [5, '/calculadora'],
  ] as const) {
    const context = await visitor(browser, chrome(40 + n), stack.front.url)
    const page = await context.newPage()
    await open(page, path)
    if (path === '/') await page.getByRole('heading', { level: 1 }).click()
    else
      await page
        .getByRole('form', { name: 'Calculadora de economia' })
        .getByRole('button', { name: 'Calcular' })
        .click()
    await page.mouse.wheel(0, 800)
    // Let the browser deliver the interaction's timing to web-vitals' observer.
    await page.waitForTimeout(300)
    await leave(page)
    contexts.push(context)
  }

  await expect
    .poll(
      async () => {
        const rows = (await pageReport()).rows
        return ['/', '/calculadora'].map((key) => {
          const row = rows.find((r) => r.key === key)
          return [row?.lcpP75 ?? null, row?.inpP75 ?? null, row?.clsP75 ?? null].every(
            (value) => value !== null,
          )
        })
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toEqual([true, true])
  const rows = (await pageReport()).rows
  for (const key of ['/', '/calculadora']) {
    const row = rows.find((r) => r.key === key)!
    // A local production build on this machine: painted within seconds, answering a tap within
    // a second, barely shifting; never the caps of a figure no browser produces.
    expect(row.lcpP75, key).toBeGreaterThan(0)
    expect(row.lcpP75, key).toBeLessThan(10_000)
    expect(row.inpP75, key).toBeGreaterThan(0)
    expect(row.inpP75, key).toBeLessThan(1000)
    expect(row.clsP75, key).toBeGreaterThanOrEqual(0)
    expect(row.clsP75, key).toBeLessThan(1)
  }
  await Promise.all(contexts.map((context) => context.close()))
})

import { randomInt } from 'node:crypto'

import type { BrowserContext, Locator, Page } from '@playwright/test'

import { FORM_TOKEN_FIELD, MIN_FILL_MS } from '../../lib/validations/demo-request-fields'
import { expect, expectIslandHydrated, test as base } from './fixtures'
import { SERVERS } from './servers'

/** SPEC section 8, word for word. */
export const TOAST = {
  successTitle: 'Solicitação enviada com sucesso!',
  successDescription: 'Nossa equipe entrará em contato em até 24 horas.',
  errorTitle: 'Erro ao enviar solicitação',
  errorDescription: 'Tente novamente ou entre em contato pelo WhatsApp.',
}

export const VALID = {
  name: 'Maria Souza',
  email: 'maria@transportadora.com.br',
  company: 'Transportadora Horizonte',
  phone: '(11) 99999-8888',
  fleetSize: '51-100',
  message: 'Temos 80 caminhões rodando à noite.',
}

export type DemoValues = typeof VALID

/**
 * The server action refuses (silently) a form sent sooner than MIN_FILL_MS after the time the
 * page's clock showed it; a person's fill time is that plus a margin.
 */
const FILL_TIME_MS = MIN_FILL_MS + 300

export function demoForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Solicitar demonstração' })
}

export function field(page: Page, name: keyof DemoValues): Locator {
  const form = demoForm(page)
  const labels: Record<keyof DemoValues, string | RegExp> = {
    name: /^Nome/,
    email: /^E-mail/,
    company: /^Empresa/,
    phone: /^Telefone/,
    fleetSize: /^Tamanho da frota/,
    message: /^Mensagem/,
  }
  return form.getByLabel(labels[name])
}

export function submitButton(page: Page): Locator {
  return demoForm(page).getByRole('button', { name: /Solicitar Demonstração|Enviando/ })
}

const clocksSet = new WeakSet<BrowserContext>()

/**
 * Runs the page's clock a person's fill time behind (Playwright's clock, flowing), before the
 * page opens: the time the form writes when it is shown, and again on "Enviar Nova Solicitação",
 * is then honestly that old by the server's clock, so no test sleeps it out. Once per context.
 */
export async function runClockBehind(page: Page) {
  if (clocksSet.has(page.context())) return
  clocksSet.add(page.context())
  await page.clock.install({ time: Date.now() - FILL_TIME_MS })
}

/**
 * Opens the form on a page whose clock runs behind (runClockBehind). Returns the instant the form
 * says it was shown, on the test's clock, for waitLikeAPerson. The form is hydrated once React has
 * switched off the browser's own validation bubbles.
 */
export async function openDemoForm(page: Page, path = '/') {
  await runClockBehind(page)
  await page.goto(`${path}#contato`)
  await expectIslandHydrated(demoForm(page))
  return formShownAt()
}

/** When the form on a page opened by openDemoForm says it was shown if (re)started now. */
export function formShownAt() {
  return Date.now() - FILL_TIME_MS
}

export async function fillDemoForm(page: Page, values: Partial<DemoValues> = VALID) {
  for (const [key, value] of Object.entries(values) as Array<[keyof DemoValues, string]>) {
    if (key === 'fleetSize') await field(page, key).selectOption(value)
    else await field(page, key).fill(value)
  }
}

/** Waits out what is left of a person's fill time counted from `openedAt`. */
export async function waitLikeAPerson(page: Page, openedAt: number) {
  const left = FILL_TIME_MS - (Date.now() - openedAt)
  if (left > 0) await page.waitForTimeout(left)
}

/**
 * Without JavaScript the server counts the fill time from the form's signed render time
 * (app/actions/demo-request.ts): waits until that token, read from the page, is MIN_FILL_MS old
 * (on this machine's clock, the server's), counted from the render, not from when filling ended.
 */
export async function waitOutSignedRenderTime(page: Page) {
  const token = await demoForm(page).locator(`input[name="${FORM_TOKEN_FIELD}"]`).inputValue()
  const renderedAt = Number(/^(\d{13})\./.exec(token)?.[1])
  expect(renderedAt, `a signed render time in "${token}"`).toBeGreaterThan(0)
  await expect
    .poll(() => Date.now() - renderedAt, { intervals: [50], timeout: MIN_FILL_MS + 5_000 })
    .toBeGreaterThan(MIN_FILL_MS)
}

export function toast(page: Page, title: string): Locator {
  return page
    .getByRole('region', { name: /Notifications/ })
    .getByRole('listitem')
    .filter({ hasText: title })
}

export async function expectErrorToast(page: Page) {
  const item = toast(page, TOAST.errorTitle)
  await expect(item).toBeVisible({ timeout: 15_000 })
  await expect(item).toContainText(TOAST.errorDescription)
  await expect(item).toHaveAttribute('data-type', 'error')
}

/**
 * Waits for the form's answer; if none came, the failure names what the form said instead (a
 * time-out, a refusal), so a CI log says why a submission failed, not only that no thank-you came.
 */
async function expectAnswer(page: Page, success: Locator) {
  try {
    await expect(success).toBeVisible({ timeout: 15_000 })
  } catch (error) {
    const failure = demoForm(page).getByText(/Tudo o que você digitou continua aqui/)
    if (!(await failure.isVisible())) throw error
    throw new Error(`The form answered with an error: "${await failure.innerText()}"`, {
      cause: error,
    })
  }
}

export async function expectSuccessToast(page: Page) {
  const item = toast(page, TOAST.successTitle)
  await expectAnswer(page, item)
  await expect(item).toContainText(TOAST.successDescription)
  await expect(item).toHaveAttribute('data-type', 'success')
}

export async function expectValuesKept(page: Page, values: DemoValues = VALID) {
  for (const [key, value] of Object.entries(values) as Array<[keyof DemoValues, string]>) {
    await expect(field(page, key)).toHaveValue(value)
  }
}

export async function expectThankYou(page: Page) {
  const thanks = page.getByRole('heading', { name: 'Obrigado pelo seu interesse!' })
  await expectAnswer(page, thanks)
  await expect(page.getByText(/entrará em contato em até 24 horas/).first()).toBeVisible()
}

/** The PostgREST double behind the `leads` server (see tests/support/postgrest-double.mjs). */
export const postgrest = {
  async call(path: string, body?: unknown) {
    const response = await fetch(`${SERVERS.postgrest.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return response.json()
  },
  reset: () => postgrest.call('/__reset', {}),
  fail: (
    failTable: 'dados_cliente' | 'chat_messages',
    mode: 'error' | '500' | 'hang' | 'hang-after-commit',
  ) => postgrest.call('/__control', { failTable, mode }),
  rows: (table: 'dados_cliente' | 'chat_messages' | 'conversoes_material') =>
    postgrest.call(`/__rows/${table}`) as Promise<Array<Record<string, unknown>>>,
  requests: () =>
    postgrest.call('/__requests') as Promise<
      Array<{ table: string; method: string; outcome: string }>
    >,
}

type DemoFixtures = {
  /** A client address of the test's own, so per-IP rate limiting never couples two tests. */
  clientIp: string
}

export const test = base.extend<DemoFixtures>({
  clientIp: [
    async ({ context }, provide) => {
      // The servers trust one proxy hop (TRUSTED_PROXY_HOPS=1): the right-most X-Forwarded-For
      // entry is the client, as a real proxy in front of `next start` would write it.
      const ip = `198.51.${randomInt(0, 255)}.${randomInt(1, 254)}`
      await context.setExtraHTTPHeaders({ 'x-forwarded-for': ip })
      await provide(ip)
    },
    { auto: true },
  ],
})

export { expect }

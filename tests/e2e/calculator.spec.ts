// The fleet savings calculator (issue 37) as a visitor meets it, at both widths: in the home
// page's ROI block, with JavaScript (the island) and without it (a GET answered by /calculadora),
// and into the demo request, whose stored texts gain one "Calculadora" line.
import { execFileSync } from 'node:child_process'
import path from 'node:path'

import type { Locator, Page } from '@playwright/test'

import {
  demoForm,
  expect,
  expectSuccessToast,
  expectThankYou,
  field,
  fillDemoForm,
  formShownAt,
  runClockBehind,
  submitButton,
  test,
  VALID,
  waitLikeAPerson,
  waitOutSignedRenderTime,
} from './demo-fixtures'
import {
  expectIslandHydrated,
  expectNoAxeViolations,
  gotoHome,
  isNarrow,
  scrollToSection,
  waitForPageSettled,
} from './fixtures'
import { SERVERS } from './servers'

const ROOT = path.join(__dirname, '..', '..')

function calculator(page: Page): Locator {
  return page.getByRole('form', { name: 'Calculadora de economia' })
}

function fleetInput(page: Page): Locator {
  return calculator(page).getByLabel('Veículos na frota')
}

/** The figures, with Intl's no-break spaces read as spaces. */
async function figures(page: Page): Promise<string> {
  const text = (await calculator(page).locator('output').textContent()) ?? ''
  return text.replace(/[\u00a0\u202f]/g, ' ')
}

/**
 * Scrolls to the calculator until its island has loaded (React has switched off the browser's
 * own validation). Again if needed: on a phone the sections above it lay themselves out as they
 * near the screen (content-visibility), which can move it away from a jump before the observer
 * sees it; a finger's scroll goes through every position on the way.
 */
async function scrollToCalculator(page: Page) {
  await expect(async () => {
    await scrollToSection(page, 'beneficios')
    await fleetInput(page).scrollIntoViewIfNeeded()
    await expect(calculator(page)).toHaveAttribute('novalidate', '', { timeout: 1500 })
  }).toPass({ timeout: 20_000 })
}

async function openCalculator(page: Page) {
  await gotoHome(page)
  await scrollToCalculator(page)
}

/** The demo requests the site's embedded store holds (`npm run leads -- --json`, on a copy). */
function storedRequests(): Array<{
  atendimento_ia: string
  chatMessage: { user_message: string }
}> {
  const out = execFileSync(process.execPath, ['scripts/leads.mjs', '--json'], {
    cwd: ROOT,
    env: { ...process.env, LEADS_DATA_DIR: '.data/e2e/site', DATABASE_URL: '' },
    encoding: 'utf8',
  })
  return JSON.parse(out.slice(out.indexOf('[')))
}

async function expectStoredLine(email: string, line: RegExp) {
  let stored: ReturnType<typeof storedRequests>[number] | undefined
  await expect
    .poll(() => {
      stored = storedRequests().find((request) => request.atendimento_ia.includes(email))
      return Boolean(stored)
    })
    .toBe(true)
  for (const text of [stored!.atendimento_ia, stored!.chatMessage.user_message]) {
    const parts = text.split(' | ')
    const at = parts.findIndex((part) => part.startsWith('Calculadora: '))
    expect(parts[at], text).toMatch(line)
    // After SPEC's fields, in their order: the message is the last of them.
    expect(parts[at - 1], text).toMatch(/^Mensagem do visitante: /)
  }
}

const BAD_FLEETS: Array<[string, string]> = [
  ['', 'Informe quantos veículos tem a frota.'],
  ['0', 'A frota precisa ter pelo menos 1 veículo.'],
  ['-5', 'A frota precisa ter pelo menos 1 veículo.'],
  ['2,5', 'Informe um número inteiro de veículos, como 120.'],
  ['1e9', 'Informe o número de veículos só com algarismos, como 120.'],
  ['abc', 'Informe o número de veículos só com algarismos, como 120.'],
  ['1000000000', 'A calculadora vai até 100.000 veículos. Para uma frota maior, fale com a gente.'],
]

test.describe('with JavaScript', () => {
  test('opens on the claims, follows the fleet, and shows how it calculates', async ({ page }) => {
    await openCalculator(page)
    const opening = await figures(page)
    expect(opening).toContain('R$ 150 mil')
    expect(opening).toContain('6 meses')
    expect(opening).toContain('300%')
    await fleetInput(page).fill('120')
    await expect.poll(() => figures(page)).toContain('R$ 360 mil')
    await calculator(page)
      .getByLabel(/^Sinistros por ano/)
      .fill('10')
    await expect.poll(() => figures(page)).toContain('15 meses')
    // "Como calculamos" lists every assumption with its source or note.
    const how = page.locator('details', { hasText: 'Como calculamos' })
    await how.getByText('Como calculamos').click()
    await expect(how.getByText(/^Sinistros por veículo por ano: 0,2\./)).toBeVisible()
    await expect(how.getByText(/exemplo a confirmar com a equipe de produto/i)).toHaveCount(4)
  })

  test(
    'answers bad input with a Portuguese message, never a broken figure',
    { tag: '@full' },
    async ({ page }) => {
      await openCalculator(page)
      for (const [value, message] of BAD_FLEETS) {
        await fleetInput(page).fill(value)
        await calculator(page).getByRole('button', { name: 'Calcular' }).click()
        await expect(fleetInput(page), value).toHaveAccessibleDescription(new RegExp(message))
        await expect(fleetInput(page)).toHaveAttribute('aria-invalid', 'true')
        expect(await figures(page), value).not.toMatch(/NaN|Infinity|undefined|R\$ -|\d+ -/)
        expect(await figures(page), value).toContain('—')
      }
      await fleetInput(page).fill('120')
      await expect(fleetInput(page)).not.toHaveAttribute('aria-invalid', 'true')
      await expect.poll(() => figures(page)).toContain('R$ 360 mil')
    },
  )

  test(
    '"Receber a análise completa" leads to the form with the band chosen, and the lead carries the estimate',
    { tag: '@full' },
    async ({ page }) => {
      // The form below writes the time it was shown by the page's clock, run a fill time behind.
      await runClockBehind(page)
      await openCalculator(page)
      await fleetInput(page).fill('120')
      await calculator(page).getByRole('button', { name: 'Receber a análise completa' }).click()
      await expect(page).toHaveURL(/\/#contato$/)
      await expect(demoForm(page)).toBeInViewport()
      await expectIslandHydrated(demoForm(page))
      const openedAt = formShownAt()
      await expect(field(page, 'fleetSize')).toHaveValue('101-500')
      await expect(demoForm(page)).toContainText(
        'Sua simulação da calculadora vai junto com o pedido: 120 veículos',
      )
      const email = `calc-${Date.now()}-${test.info().project.name}@transportadora.com.br`
      const { name, company, phone, message } = VALID
      await fillDemoForm(page, { name, company, phone, message, email })
      await waitLikeAPerson(page, openedAt)
      await submitButton(page).click()
      await expectSuccessToast(page)
      await expectStoredLine(
        email,
        /^Calculadora: 120 veículos, 24 sinistros\/ano \(estimados\), custo médio R\$ 25\.000 por sinistro \(premissa\); economia estimada R\$ 360 mil\/ano, investimento R\$ 180 mil, payback 6 meses, ROI em 2 anos 300%$/,
      )
    },
  )

  test(
    'has inputs at least 44 px tall, no horizontal overflow and no axe violation',
    { tag: '@full' },
    async ({ page }) => {
      await openCalculator(page)
      for (const input of await calculator(page).locator('input, button').all()) {
        const box = (await input.boundingBox())!
        expect(
          box.height,
          await input.evaluate((el) => el.outerHTML.slice(0, 80)),
        ).toBeGreaterThanOrEqual(44)
      }
      const summary = page.locator('details summary', { hasText: 'Como calculamos' })
      expect((await summary.boundingBox())!.height).toBeGreaterThanOrEqual(44)
      await fleetInput(page).fill('1000000000')
      await calculator(page).getByRole('button', { name: 'Calcular' }).click()
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow, 'horizontal overflow').toBeLessThanOrEqual(0)
      await page
        .locator('details', { hasText: 'Como calculamos' })
        .getByText('Como calculamos')
        .click()
      await expectNoAxeViolations(page)
      if (isNarrow(page)) expect(page.viewportSize()!.width).toBe(375)
    },
  )

  test(
    'the server’s answer page is accessible and fits a phone',
    { tag: '@full' },
    async ({ page }) => {
      await page.goto('/calculadora?frota=120&sinistros=&custo=')
      await expectIslandHydrated(calculator(page))
      expect(await figures(page)).toContain('R$ 360 mil')
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow, 'horizontal overflow').toBeLessThanOrEqual(0)
      await expectNoAxeViolations(page)
    },
  )

  test('does not move the page while its island loads', { tag: '@full' }, async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __shifts: string[] }
      w.__shifts = []
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Array<{
          hadRecentInput: boolean
          value: number
          sources?: Array<{ node?: Node | null }>
        }>) {
          if (entry.hadRecentInput) continue
          for (const source of entry.sources ?? []) {
            const node = source.node
            const element = node instanceof Element ? node : node?.parentElement
            if (element?.closest('#beneficios'))
              w.__shifts.push(`${entry.value} ${element.outerHTML.slice(0, 100)}`)
          }
        }
      }).observe({ type: 'layout-shift', buffered: true })
    })
    await openCalculator(page)
    await waitForPageSettled(page)
    expect(
      await page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts),
    ).toEqual([])
  })

  test(
    'loads its code only as the visitor nears it; the home page stays prerendered',
    { tag: '@full' },
    async ({ page, request }) => {
      const home = await request.get(SERVERS.site.url)
      expect(home.headers()['cache-control']).toMatch(/s-maxage=\d+/)
      // The scripts' addresses are noted as they arrive and read afterwards: reading each body in a
      // response handler races the assertions (and a body the page has let go of cannot be read).
      const scripts: string[] = []
      page.on('response', (response) => {
        if (new URL(response.url()).pathname.endsWith('.js')) scripts.push(response.url())
      })
      const loadsCalculator = async (urls: string[]) => {
        for (const url of urls)
          if ((await (await request.get(url)).text()).includes('Receber a análise completa'))
            return true
        return false
      }
      await gotoHome(page)
      // Until the page has loaded all it loads by itself (no request for 500 ms: whatever its
      // hydration imports, idle or not), rather than a fixed pause that a slow machine outlasts.
      await page.waitForLoadState('networkidle')
      // The label is in the HTML already; the chunk that renders it on the client is not loaded.
      const before = scripts.length
      expect(await loadsCalculator(scripts.slice(0, before))).toBe(false)
      await scrollToCalculator(page)
      expect(await loadsCalculator(scripts.slice(before))).toBe(true)
    },
  )
})

test.describe('without JavaScript', { tag: '@full' }, () => {
  test.use({ javaScriptEnabled: false })

  test('the server answers the estimate, and the demo form below has the band chosen', async ({
    page,
  }) => {
    await page.goto('/#beneficios')
    expect(await figures(page)).toContain('R$ 150 mil')
    await fleetInput(page).fill('120')
    await calculator(page).getByRole('button', { name: 'Calcular' }).click()
    await expect(page).toHaveURL(/\/calculadora\?frota=120&sinistros=&custo=$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Calcule a economia da sua frota',
    )
    expect(await figures(page)).toContain('R$ 360 mil')
    expect(await figures(page)).toContain('6 meses')
    expect(await figures(page)).toContain('300%')
    await expect(fleetInput(page)).toHaveValue('120')
    await expect(field(page, 'fleetSize')).toHaveValue('101-500')
  })

  test('"Receber a análise completa" lands on the form, and the lead carries the estimate', async ({
    page,
  }) => {
    await page.goto('/#beneficios')
    await fleetInput(page).fill('120')
    await calculator(page)
      .getByLabel(/^Custo médio/)
      .fill('30.000')
    await calculator(page).getByRole('button', { name: 'Receber a análise completa' }).click()
    await expect(page).toHaveURL(/\/calculadora\?frota=120&sinistros=&custo=30\.000#contato$/)
    await expect(field(page, 'fleetSize')).toHaveValue('101-500')
    await expect(demoForm(page)).toContainText('custo médio de R$ 30.000 por sinistro')
    const email = `calc-nojs-${Date.now()}-${test.info().project.name}@transportadora.com.br`
    const { name, company, phone, message } = VALID
    await fillDemoForm(page, { name, company, phone, message, email })
    // The form's signed render time must be a person's fill time old (docs/security.md).
    await waitOutSignedRenderTime(page)
    await submitButton(page).click()
    await expectThankYou(page)
    await expectStoredLine(
      email,
      /^Calculadora: 120 veículos, 24 sinistros\/ano \(estimados\), custo médio R\$ 30\.000 por sinistro; economia estimada R\$ 432 mil\/ano, investimento R\$ 180 mil, payback 5 meses, ROI em 2 anos 380%$/,
    )
  })

  test('bad input gets the server’s Portuguese message, never a broken figure', async ({
    page,
  }) => {
    for (const [value, message] of BAD_FLEETS) {
      await page.goto(`/calculadora?frota=${encodeURIComponent(value)}&sinistros=&custo=`)
      await expect(fleetInput(page), value).toHaveAccessibleDescription(new RegExp(message))
      const shown = await figures(page)
      expect(shown, value).toContain('—')
      expect(shown, value).not.toMatch(/NaN|Infinity|undefined|R\$ -/)
      // Nothing to carry to the form while the input is wrong.
      await expect(field(page, 'fleetSize')).toHaveValue('')
    }
    // A forged query with a huge or negative cost is refused too.
    await page.goto('/calculadora?frota=50&sinistros=-1&custo=1e99')
    await expect(calculator(page).getByLabel(/^Sinistros por ano/)).toHaveAccessibleDescription(
      /O número de sinistros não pode ser negativo\./,
    )
    await expect(calculator(page).getByLabel(/^Custo médio/)).toHaveAccessibleDescription(
      /Informe o custo em reais só com algarismos/,
    )
  })
})

import { readFileSync } from 'node:fs'
import path from 'node:path'

import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Locator, type Page } from '@playwright/test'

import { parseDataset } from '../../lib/content/bundled'
import { PAGE_WEIGHT_BUDGET, pageWeight } from '../../scripts/lib/page-weight.mjs'
import type { LandingPage, SiteSettings } from '../../sanity/types'

export { expect }

/** Tailwind's md breakpoint: below it the header shows the menu button instead of the navigation. */
export const MD_BREAKPOINT = 768

export const SECTION_IDS = [
  'sobre',
  'como-funciona',
  'tecnologia',
  'beneficios',
  'contato',
] as const
export type SectionId = (typeof SECTION_IDS)[number]

export const NAV_ENTRIES: ReadonlyArray<{ label: string; id: SectionId }> = [
  { label: 'Sobre', id: 'sobre' },
  { label: 'Como Funciona', id: 'como-funciona' },
  { label: 'Tecnologia', id: 'tecnologia' },
  { label: 'Benefícios', id: 'beneficios' },
  { label: 'Contato', id: 'contato' },
]

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** Reads a field the specs rely on, failing loudly when the bundled dataset lacks it. */
function required<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined || value === '') {
    throw new Error(`The bundled dataset has no ${what}.`)
  }
  return value
}

/**
 * The bundled dataset the `site` build was made from, so tests can name headings and figures
 * without copying marketing copy (the SPEC's fixed strings are still spelled out in the specs).
 */
function loadBundledContent() {
  const file = path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson')
  const docs = parseDataset(readFileSync(file, 'utf8'))
  const page = docs.find((doc) => doc._id === 'landingPage') as LandingPage | undefined
  const settings = docs.find((doc) => doc._id === 'siteSettings') as SiteSettings | undefined
  const headings: Record<SectionId, string | undefined> = {
    sobre: page?.sobre?.heading,
    'como-funciona': page?.comoFunciona?.heading,
    tecnologia: page?.tecnologia?.heading,
    beneficios: page?.beneficios?.heading,
    contato: page?.contato?.heading,
  }
  return {
    headline: required(page?.hero?.headline, 'hero headline'),
    sectionHeading: (id: SectionId) => required(headings[id], `heading for #${id}`),
    contact: {
      email: required(settings?.contact?.email, 'contact e-mail'),
      phone: required(settings?.contact?.phone, 'contact phone'),
      whatsappNumber: required(settings?.contact?.whatsappNumber, 'WhatsApp number'),
      whatsappGreeting: required(settings?.contact?.whatsappGreeting, 'WhatsApp greeting'),
    },
    legalLinks: settings?.footer?.legalLinks ?? [],
    socialPlatforms: (settings?.footer?.socialLinks ?? []).map((link) =>
      required(link.platform, 'social platform'),
    ),
  }
}

/** What the `site` build shows: the bundled dataset. */
export const content = loadBundledContent()

export function isNarrow(page: Page): boolean {
  return (page.viewportSize()?.width ?? 0) < MD_BREAKPOINT
}

/**
 * Links on this page are plain anchors, but the menu button only works once React has
 * hydrated it. React marks the DOM nodes it has taken over with `__reactProps$…` keys.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const button = document.querySelector('header button[aria-controls]')
    return button !== null && Object.keys(button).some((key) => key.startsWith('__reactProps$'))
  })
}

/**
 * An island (the demo form, the calculator) is hydrated once React has switched off the browser's
 * own validation bubbles. Its code loads only as it comes near (components/near-viewport-island.tsx);
 * on a loaded 2-core machine, beside other projects' servers, that has taken more than 5 s.
 */
export async function expectIslandHydrated(form: Locator) {
  await expect(form).toHaveAttribute('novalidate', '', { timeout: 20_000 })
}

export async function gotoHome(page: Page) {
  await page.goto('/')
  await waitForHydration(page)
}

/** Scrolls a section into view, as a visitor reaches it (its island's code loads near it). */
export async function scrollToSection(page: Page, id: SectionId | `bloco-${string}`) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded()
}

/**
 * Resolves once the page has rendered two more frames and then had an idle moment: what it has
 * loaded has laid out, its observers (layout shifts, near-viewport islands) have reported, and no
 * task is left queued. A condition where a fixed pause would guess at how slow the machine is.
 */
export async function waitForPageSettled(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => requestIdleCallback(() => resolve(), { timeout: 2_000 })),
        ),
      ),
  )
}

/** Resolves once the page has not scrolled for several frames (smooth scrolling has ended). */
export async function waitForScrollEnd(page: Page) {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        let last = window.scrollY
        let stillFrames = 0
        const tick = () => {
          if (window.scrollY === last) stillFrames += 1
          else {
            stillFrames = 0
            last = window.scrollY
          }
          if (stillFrames >= 8) resolve(true)
          else requestAnimationFrame(tick)
        }
        requestAnimationFrame(tick)
      }),
  )
}

export function section(page: Page, id: SectionId): Locator {
  return page.locator(`section#${id}`)
}

/**
 * After following a link to #id: the URL has the hash, and the section's heading is inside the
 * viewport, below the fixed header and not covered by it (the point at its top left, where the
 * first line of text is, hits the heading itself).
 */
export async function expectLandedOn(page: Page, id: SectionId) {
  await expect(page).toHaveURL(new RegExp(`#${id}$`))
  const heading = section(page, id).getByRole('heading', { level: 2 })
  await expect(heading).toBeInViewport()
  await waitForScrollEnd(page)
  const result = await heading.evaluate((element) => {
    const header = document.querySelector('header')
    const box = element.getBoundingClientRect()
    const headerBottom = header ? header.getBoundingClientRect().bottom : 0
    const probe = document.elementFromPoint(
      box.left + box.width / 2,
      box.top + Math.min(box.height / 2, 12),
    )
    return {
      headingTop: Math.round(box.top),
      headerBottom: Math.round(headerBottom),
      headingBottom: Math.round(box.bottom),
      viewportHeight: window.innerHeight,
      coveredBy: probe && !element.contains(probe) ? probe.outerHTML.slice(0, 120) : null,
    }
  })
  expect(result.headingTop, `#${id} heading starts below the fixed header`).toBeGreaterThanOrEqual(
    result.headerBottom,
  )
  expect(result.headingBottom, `#${id} heading ends inside the viewport`).toBeLessThanOrEqual(
    result.viewportHeight,
  )
  expect(result.coveredBy, `#${id} heading is not covered`).toBeNull()
}

/** The header's menu button (only displayed below the md breakpoint). */
export function menuButton(page: Page): Locator {
  return page.getByRole('banner').getByRole('button', { name: /menu/i })
}

/**
 * The navigation a visitor uses at this width: the header's "Principal" navigation on wide
 * screens, the menu opened with the menu button on narrow ones.
 */
export async function openNavigation(page: Page): Promise<Locator> {
  if (!isNarrow(page)) return page.getByRole('navigation', { name: 'Principal' })
  const button = menuButton(page)
  await button.click()
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  const panelId = await button.getAttribute('aria-controls')
  const panel = page.locator(`[id="${panelId}"]`)
  await expect(panel).toBeVisible()
  return panel
}

/**
 * The served HTML within every page-weight budget of the home page (scripts/lib/page-weight.mjs),
 * and holding more than `moreElementsThan` elements: a page that lost its content would pass every
 * budget while proving nothing. Returns the weight for further checks.
 */
export function expectWithinPageWeight(html: string, moreElementsThan: number) {
  const weight = pageWeight(html)
  const report = JSON.stringify({ weight, budget: PAGE_WEIGHT_BUDGET })
  expect(weight.elements, report).toBeGreaterThan(moreElementsThan)
  for (const key of ['elements', 'rscPayloadBytes', 'htmlBytes', 'stylesheetBytes'] as const)
    expect(weight[key], `${key}: ${report}`).toBeLessThanOrEqual(PAGE_WEIGHT_BUDGET[key])
  return weight
}

export async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()
  const summary = violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
  }))
  expect(summary).toEqual([])
}

type Fixtures = {
  /** Every console error and uncaught page error of the test's page, in order. */
  consoleErrors: string[]
}

export const test = base.extend<Fixtures>({
  consoleErrors: async ({ page }, provide) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
    await provide(errors)
  },
})

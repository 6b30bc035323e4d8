import type { Page } from '@playwright/test'

import {
  expect,
  expectLandedOn,
  gotoHome,
  isNarrow,
  menuButton,
  NAV_ENTRIES,
  openNavigation,
  SECTION_IDS,
  test,
  content,
  waitForPageSettled,
} from './fixtures'

test.describe('navigation lands on its section', { tag: '@full' }, () => {
  test.beforeEach(async ({ page }) => {
    await gotoHome(page)
  })

  for (const entry of NAV_ENTRIES) {
    test(`header entry "${entry.label}" scrolls to #${entry.id}`, async ({ page }) => {
      const navigation = await openNavigation(page)
      const link = navigation.getByRole('link', { name: entry.label, exact: true })
      await expect(link).toHaveAttribute('href', `#${entry.id}`)
      await link.click()
      await expectLandedOn(page, entry.id)
    })
  }

  test('"Solicitar Demo" in the header scrolls to #contato', async ({ page }) => {
    const navigation = await openNavigation(page)
    // On wide screens the button sits in the header beside the navigation, on narrow ones in the menu.
    const scope = isNarrow(page) ? navigation : page.getByRole('banner')
    const button = scope.getByRole('link', { name: 'Solicitar Demo', exact: true })
    await expect(button).toBeVisible()
    await button.click()
    await expectLandedOn(page, 'contato')
  })

  test('"Solicitar Demonstração" in the hero scrolls to #contato', async ({ page }) => {
    await page
      .getByRole('region', { name: content.headline })
      .getByRole('link', { name: 'Solicitar Demonstração' })
      .click()
    await expectLandedOn(page, 'contato')
  })

  test('"Como Funciona" in the hero scrolls to #como-funciona', async ({ page }) => {
    await page
      .getByRole('region', { name: content.headline })
      .getByRole('link', { name: 'Como Funciona', exact: true })
      .click()
    await expectLandedOn(page, 'como-funciona')
  })

  test('the footer links scroll to each section', async ({ page }) => {
    const footerNavigation = page.getByRole('contentinfo').getByRole('navigation')
    const links = footerNavigation.getByRole('link')
    await expect(links).toHaveCount(SECTION_IDS.length)
    for (const [index, entry] of NAV_ENTRIES.entries()) {
      const link = links.nth(index)
      await expect(link).toHaveText(entry.label)
      await expect(link).toHaveAttribute('href', `#${entry.id}`)
      await link.click()
      await expectLandedOn(page, entry.id)
    }
  })
})

test.describe('header at each width', { tag: '@full' }, () => {
  test('wide screens show the navigation and no menu button; narrow ones the reverse', async ({
    page,
  }) => {
    await gotoHome(page)
    const navigation = page.getByRole('navigation', { name: 'Principal' })
    const demo = page.getByRole('banner').getByRole('link', { name: 'Solicitar Demo', exact: true })
    if (isNarrow(page)) {
      await expect(navigation).toBeHidden()
      await expect(demo).toBeHidden()
      await expect(menuButton(page)).toBeVisible()
    } else {
      await expect(navigation).toBeVisible()
      await expect(navigation.getByRole('link')).toHaveText(NAV_ENTRIES.map((entry) => entry.label))
      await expect(demo).toBeVisible()
      await expect(menuButton(page)).toBeHidden()
    }
  })
})

test.describe('smooth scrolling', { tag: '@full' }, () => {
  test('is on by default', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' })
    await page.goto('/')
    const behavior = await page.evaluate(
      () => getComputedStyle(document.documentElement).scrollBehavior,
    )
    expect(behavior).toBe('smooth')
  })

  test('is off for visitors who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto('/')
    const behavior = await page.evaluate(
      () => getComputedStyle(document.documentElement).scrollBehavior,
    )
    expect(behavior).toBe('auto')
  })
})

test.describe('rendering below the fold', () => {
  // The first frame lays out only the header and the hero (app/globals.css, render-when-visible);
  // the landing tests above prove that anchors still land, this proves the saving is in place.
  test('sections after the hero wait until they are needed, and all render once a target is named', async ({
    page,
  }) => {
    await gotoHome(page)
    const visibility = () =>
      page.evaluate((ids) => {
        const style = (element: Element | null) =>
          element ? getComputedStyle(element).contentVisibility : 'missing'
        return {
          hero: style(document.getElementById('inicio')),
          sections: ids.map((id) => style(document.getElementById(id))),
          footer: style(document.querySelector('footer')),
        }
      }, SECTION_IDS)
    expect(await visibility()).toEqual({
      hero: 'visible',
      sections: SECTION_IDS.map(() => 'auto'),
      footer: 'auto',
    })

    await page.evaluate(() => {
      window.location.hash = 'contato'
    })
    await expect(page).toHaveURL(/#contato$/)
    expect(await visibility()).toEqual({
      hero: 'visible',
      sections: SECTION_IDS.map(() => 'visible'),
      footer: 'visible',
    })
  })

  // Focus scrolls smoothly too, and would land short of a field below blocks that render on the
  // way (tests/e2e/keyboard.spec.ts checks every tab stop ends on screen). A pointer gives a button
  // focus without that: its tap must not lay out the whole page.
  test(
    'a tap keeps the lazy layout; the first Tab lays out every section',
    { tag: '@full' },
    async ({ page }) => {
      await gotoHome(page)
      const lazy = () =>
        page.evaluate(
          (ids) =>
            [...ids.map((id) => document.getElementById(id)), document.querySelector('footer')].map(
              (element) => (element ? getComputedStyle(element).contentVisibility : 'missing'),
            ),
          SECTION_IDS,
        )
      const button = page.locator('#inicio').getByRole('link', { name: 'Como Funciona' })
      await button.evaluate((element) => {
        // Focus as a pointer gives it: no focus ring, so :focus-visible does not match.
        element.addEventListener('click', (event) => event.preventDefault(), { once: true })
      })
      await button.click()
      await expect(button).toBeFocused()
      expect(new Set(await lazy())).toEqual(new Set(['auto']))

      await page.keyboard.press('Tab')
      expect(new Set(await lazy())).toEqual(new Set(['visible']))
    },
  )
})

test.describe('what a page has is in its document when it opens', { tag: '@full' }, () => {
  // Lazy blocks skip rendering (content-visibility), never leave the document: a screen reader's
  // headings and form-controls lists, find-in-page and any tool that reads the page find all of
  // them before the visitor scrolls (docs/speed.md).
  const reachable = (page: Page) =>
    page
      .locator('h1, h2, h3, h4, h5, h6, input:not([type=hidden]), select, textarea, main button')
      .evaluateAll((elements) =>
        elements.map((element) => {
          const named = element as HTMLInputElement
          const label = named.labels?.[0]?.textContent ?? element.getAttribute('aria-label')
          return `${element.tagName} ${(label ?? element.textContent ?? named.name).trim()}`
        }),
      )

  for (const path of ['/', '/p/onibus-rodoviarios']) {
    test(`${path}: every heading and form control scrolled through was there when it opened`, async ({
      page,
    }) => {
      await page.goto(path, { waitUntil: 'load' })
      await waitForPageSettled(page)
      const atOpen = await reachable(page)
      const headings = await page.getByRole('heading').count()
      const fields = await page.getByRole('textbox').count()
      // Scrolled through as a visitor does, a screen at a time, each form's code loaded on the way.
      const height = await page.evaluate(() => window.innerHeight)
      for (let step = 0; step < 80; step++) {
        const atEnd = await page.evaluate(
          () => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2,
        )
        if (atEnd) break
        await page.mouse.wheel(0, height * 0.8)
        await page.waitForTimeout(50)
      }
      await waitForPageSettled(page)
      expect(atOpen.filter((name) => name.startsWith('INPUT')).length).toBeGreaterThan(2)
      expect(atOpen).toEqual(await reachable(page))
      expect([headings, fields]).toEqual([
        await page.getByRole('heading').count(),
        await page.getByRole('textbox').count(),
      ])
    })
  }
})

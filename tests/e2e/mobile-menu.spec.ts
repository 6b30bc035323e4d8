import {
  expect,
  expectLandedOn,
  expectNoAxeViolations,
  gotoHome,
  isNarrow,
  menuButton,
  NAV_ENTRIES,
  openNavigation,
  test,
} from './fixtures'

// Runs in the mobile project only (playwright.config.ts): the menu button exists below the md
// breakpoint alone.
test.describe('mobile menu', () => {
  test.beforeEach(async ({ page }) => {
    expect(isNarrow(page), 'this spec needs a viewport below the md breakpoint').toBe(true)
    await gotoHome(page)
  })

  test('is axe clean when open', { tag: '@full' }, async ({ page }) => {
    await openNavigation(page)
    await expectNoAxeViolations(page)
  })

  test('starts closed, its panel not drawn until opened', { tag: '@full' }, async ({ page }) => {
    const button = menuButton(page)
    await expect(button).toBeVisible()
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(button).toHaveAccessibleName('Abrir menu')
    const panelId = await button.getAttribute('aria-controls')
    expect(panelId).toBeTruthy()
    await expect(page.locator(`[id="${panelId}"]`)).toHaveCount(0)
    await button.click()
    await expect(page.locator(`[id="${panelId}"]`)).toBeVisible()
  })

  test('toggles open and closed', async ({ page }) => {
    const button = menuButton(page)
    const panel = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`)

    await button.click()
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    await expect(button).toHaveAccessibleName('Fechar menu')
    await expect(panel).toBeVisible()
    await expect(panel.getByRole('link')).toHaveText([
      ...NAV_ENTRIES.map((entry) => entry.label),
      'Solicitar Demo',
    ])

    await button.click()
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(button).toHaveAccessibleName('Abrir menu')
    await expect(panel).toBeHidden()
  })

  test(
    'choosing an entry scrolls to its section and closes the menu',
    { tag: '@full' },
    async ({ page }) => {
      const button = menuButton(page)
      const panel = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`)
      await button.click()
      await panel.getByRole('link', { name: 'Tecnologia', exact: true }).click()
      await expect(button).toHaveAttribute('aria-expanded', 'false')
      await expect(panel).toBeHidden()
      await expectLandedOn(page, 'tecnologia')
    },
  )

  test('Escape closes it and returns focus to the button', { tag: '@full' }, async ({ page }) => {
    const button = menuButton(page)
    const panel = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`)
    await button.click()
    await expect(panel).toBeVisible()
    // Focus is inside the menu, as for a keyboard user tabbing through it.
    await panel.getByRole('link').first().focus()
    await page.keyboard.press('Escape')
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(panel).toBeHidden()
    await expect(button).toBeFocused()
  })

  test('can be used with the keyboard alone', { tag: '@full' }, async ({ page }) => {
    const button = menuButton(page)
    const panel = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`)
    await button.focus()
    await page.keyboard.press('Enter')
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    await page.keyboard.press('Tab')
    await expect(panel.getByRole('link', { name: 'Sobre', exact: true })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expectLandedOn(page, 'sobre')
  })
})

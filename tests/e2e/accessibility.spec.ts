import { expect, expectNoAxeViolations, gotoHome, scrollToSection, test } from './fixtures'

// WCAG 2.2 AA as axe checks it, at both widths (the projects), with smooth scrolling and the
// hydrated page as a visitor gets them. The open mobile menu is scanned in mobile-menu.spec.ts.
test.describe('accessibility (axe, WCAG 2.2 AA)', () => {
  test('home page', async ({ page }) => {
    await gotoHome(page)
    await expectNoAxeViolations(page)
    // Again with the forms' code loaded and hydrated.
    await scrollToSection(page, 'contato')
    await expect(page.getByRole('form', { name: 'Calculadora de economia' })).toBeAttached()
    await expect(page.locator('#contato form')).toBeAttached()
    await expectNoAxeViolations(page)
  })

  test('not-found page', { tag: '@full' }, async ({ page }) => {
    await page.goto('/pagina-que-nao-existe')
    await expectNoAxeViolations(page)
  })
})

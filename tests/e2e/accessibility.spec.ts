import { expectNoAxeViolations, gotoHome, isNarrow, openNavigation, test } from './fixtures'

// WCAG 2.2 AA as axe checks it, at both widths (the projects), with smooth scrolling and the
// hydrated page as a visitor gets them.
test.describe('accessibility (axe, WCAG 2.2 AA)', () => {
  test('home page', async ({ page }) => {
    await gotoHome(page)
    await expectNoAxeViolations(page)
  })

  test('home page with the mobile menu open', async ({ page }) => {
    test.skip(!isNarrow(page), 'The menu button only exists below the md breakpoint.')
    await gotoHome(page)
    await openNavigation(page)
    await expectNoAxeViolations(page)
  })

  test('not-found page', async ({ page }) => {
    await page.goto('/pagina-que-nao-existe')
    await expectNoAxeViolations(page)
  })
})

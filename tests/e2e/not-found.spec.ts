import { expect, test } from './fixtures'

const MISSING_PATHS = ['/pagina-que-nao-existe', '/sobre/equipe']

test.describe('not-found page', () => {
  for (const path of MISSING_PATHS) {
    test(`${path} answers HTTP 404`, { tag: '@http' }, async ({ request }) => {
      const response = await request.get(path)
      expect(response.status()).toBe(404)
      expect(response.headers()['content-type']).toMatch(/text\/html/)
    })
  }

  test('shows 404, "Oops! Page not found" and a link back to the home page', async ({ page }) => {
    const response = await page.goto(MISSING_PATHS[0]!)
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: '404' })).toBeVisible()
    await expect(page.getByText('Oops! Page not found', { exact: true })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR')

    const home = page.getByRole('main').getByRole('link')
    await expect(home).toHaveAttribute('href', '/')
    await home.click()
    await expect(page).toHaveURL('/')
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('404')
  })

  test(
    'logs an error with the missing path to the browser console',
    { tag: '@full' },
    async ({ page, consoleErrors }) => {
      const path = MISSING_PATHS[1]!
      await page.goto(path)
      await expect
        .poll(() => consoleErrors.filter((message) => message.includes(path)))
        .toEqual([expect.stringMatching(/404/)])
    },
  )
})

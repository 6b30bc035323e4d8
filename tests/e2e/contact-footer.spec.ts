import { content, expect, gotoHome, section, test } from './fixtures'

test.describe('contact section', () => {
  test('the WhatsApp button opens a chat with the prefilled greeting in a new tab', async ({
    page,
    context,
  }) => {
    await gotoHome(page)
    const link = section(page, 'contato').getByRole('link', { name: /WhatsApp/ })
    await expect(link).toBeVisible()
    await expect(link).toHaveAttribute('target', '_blank')
    const rel = ((await link.getAttribute('rel')) ?? '').split(/\s+/)
    expect(rel).toEqual(expect.arrayContaining(['noopener', 'noreferrer']))

    const href = new URL((await link.getAttribute('href'))!)
    expect(href.origin).toBe('https://wa.me')
    expect(href.pathname).toBe(`/${content.contact.whatsappNumber}`)
    expect(href.pathname).toMatch(/^\/55\d{10,11}$/)
    expect(href.searchParams.get('text')).toBe(content.contact.whatsappGreeting)
    expect(href.searchParams.get('text')).toMatch(/Vigia/)

    // No network here: answer wa.me locally, so the new tab's URL is what the browser asked for.
    await context.route('https://wa.me/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>WhatsApp</title>' }),
    )
    const popupPromise = page.waitForEvent('popup')
    await link.click()
    const popup = await popupPromise
    await popup.waitForLoadState()
    expect(popup.url()).toBe(href.toString())
    // rel=noopener: the chat tab cannot reach back into the page.
    expect(await popup.evaluate(() => window.opener)).toBeNull()
    await popup.close()
  })
})

test.describe('footer', { tag: '@full' }, () => {
  test.beforeEach(async ({ page }) => {
    await gotoHome(page)
  })

  test('shows the brand, its tagline and a copyright line with the current year', async ({
    page,
  }) => {
    const footer = page.getByRole('contentinfo')
    await expect(footer.getByText('Fleet Safety Technology', { exact: true })).toBeVisible()
    const year = new Date().getFullYear()
    await expect(footer.getByText(`© ${year}`)).toBeVisible()
    await expect(footer.getByText(`© ${year}`)).toContainText('Vigia')
  })

  test('links to the privacy policy, terms of use, LGPD and accessibility pages', async ({
    page,
  }) => {
    const footer = page.getByRole('contentinfo')
    for (const [name, href] of [
      [/privacidade/i, '/privacidade'],
      [/termos de uso/i, '/termos'],
      [/^LGPD$/, '/lgpd'],
      [/acessibilidade/i, '/acessibilidade'],
    ] as const) {
      const link = footer.getByRole('link', { name })
      await expect(link).toBeVisible()
      await expect(link).toHaveAttribute('href', href)
    }
    expect(content.legalLinks.map((link) => link.label)).toHaveLength(4)
  })

  test('has two placeholder social links', async ({ page }) => {
    const footer = page.getByRole('contentinfo')
    const social = footer.getByRole('link', { name: /linkedin|instagram|youtube/i })
    await expect(social).toHaveCount(2)
    expect(content.socialPlatforms).toHaveLength(2)
    for (const platform of content.socialPlatforms) {
      const link = footer.getByRole('link', { name: new RegExp(platform, 'i') })
      await expect(link).toBeVisible()
      await expect(link).toHaveAttribute('href', '#')
    }
  })
})

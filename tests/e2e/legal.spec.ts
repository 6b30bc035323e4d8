import { expect, type APIRequestContext, type Page } from '@playwright/test'

import { demoForm } from './demo-fixtures'
import { expectNoAxeViolations, gotoHome, scrollToSection, SECTION_IDS, test } from './fixtures'

/*
 * The legal pages (legalPage documents, app/[slug]) on the bundled dataset, at both widths (the
 * desktop and mobile projects), and the privacy promises the policy makes to every visitor:
 * no cookies and no request to any other origin.
 */

const LEGAL_PAGES = [
  { path: '/privacidade', title: 'Política de Privacidade' },
  { path: '/termos', title: 'Termos de Uso' },
  { path: '/lgpd', title: 'LGPD: seus direitos' },
  { path: '/acessibilidade', title: 'Declaração de Acessibilidade' },
] as const

const PUBLIC_ROUTES = ['/', ...LEGAL_PAGES.map((page) => page.path), '/pagina-que-nao-existe']

/** Script URLs a page loads, without the build's query strings. */
async function scriptsOf(request: APIRequestContext, path: string): Promise<string[]> {
  const html = await (await request.get(path)).text()
  return [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!)
}

/** Loads `path` and scrolls through it, recording every request the browser makes. */
async function visit(page: Page, path: string): Promise<URL[]> {
  const requests: URL[] = []
  page.on('request', (request) => requests.push(new URL(request.url())))
  await page.goto(path)
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await page.waitForLoadState('networkidle')
  return requests
}

test.describe('legal pages', () => {
  // npm test visits one legal page (they share one template); test:all visits all four.
  for (const legal of LEGAL_PAGES) {
    test(
      `${legal.path} answers 200 with its title, date, a way home, and no axe violation`,
      { tag: legal === LEGAL_PAGES[0] ? [] : '@full' },
      async ({ page }) => {
        const response = await page.goto(legal.path)
        expect(response?.status()).toBe(200)
        await expect(page).toHaveTitle(`${legal.title} | Vigia`)
        await expect(page.getByRole('heading', { level: 1, name: legal.title })).toBeVisible()
        await expect(
          page.getByText(/^Última atualização: \d{1,2} de \p{L}+ de \d{4}$/u),
        ).toBeVisible()
        await expect(page.locator('time[datetime]')).toHaveAttribute(
          'datetime',
          /^\d{4}-\d{2}-\d{2}$/,
        )
        await expect(page.getByRole('link', { name: 'Voltar para o início' })).toHaveAttribute(
          'href',
          '/',
        )
        // The page's own description and canonical address.
        await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/)
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
          'href',
          new RegExp(`${legal.path}$`),
        )
        await expectNoAxeViolations(page)
      },
    )
  }

  test(
    'the LGPD page names the controller and the encarregado, as the footer does',
    { tag: '@full' },
    async ({ page }) => {
      await page.goto('/lgpd')
      const contacts = page.getByRole('region', { name: /controlador e encarregado/i })
      await expect(contacts).toContainText('Vigia Tecnologia para Frotas Ltda.')
      // The bundled settings invent no CNPJ and no encarregado's name: the company supplies both.
      await expect(contacts).not.toContainText('CNPJ')
      const email = contacts.getByRole('link', { name: /@/ })
      await expect(email).toHaveAttribute('href', /^mailto:.+@/)
      const footer = page.getByRole('contentinfo')
      await expect(footer).toContainText('Vigia Tecnologia para Frotas Ltda.')
      await expect(footer.getByRole('link', { name: (await email.textContent())! })).toBeVisible()
    },
  )

  test(
    "the header's links lead to the home page's sections",
    { tag: '@full' },
    async ({ page }) => {
      await page.goto('/privacidade')
      const header = page.getByRole('banner')
      await expect(header.getByRole('link', { name: /solicitar demo/i })).toHaveAttribute(
        'href',
        '/#contato',
      )
      const hrefs = await header
        .getByRole('link')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
      for (const href of hrefs) expect(href === '/' || /^\/#[a-z-]+$/.test(href ?? '')).toBe(true)
      for (const id of SECTION_IDS) {
        await expect(page.getByRole('contentinfo').locator(`a[href="/#${id}"]`)).toHaveCount(1)
      }
      await header.getByRole('link', { name: /solicitar demo/i }).click()
      await expect(page).toHaveURL(/\/#contato$/)
      await expect(page.locator('section#contato')).toBeInViewport()
    },
  )

  test(
    'an unknown path at that level is the 404 page, with status 404',
    { tag: '@full' },
    async ({ page }) => {
      const response = await page.goto('/politica-inexistente')
      expect(response?.status()).toBe(404)
      await expect(page.getByRole('heading', { level: 1, name: '404' })).toBeVisible()
    },
  )

  test(
    'the pages ship no JavaScript of their own, only what the home page shares',
    { tag: '@http' },
    async ({ request }) => {
      const size = async (src: string) => (await (await request.get(src)).body()).length
      const homeScripts = await scriptsOf(request, '/')
      const home = new Set(homeScripts)
      let homeBytes = 0
      for (const src of homeScripts) homeBytes += await size(src)
      for (const legal of LEGAL_PAGES) {
        let bytes = 0
        for (const src of await scriptsOf(request, legal.path)) {
          bytes += await size(src)
          if (home.has(src)) continue
          // The bundler may cut the shared framework code into other chunks than the home page's,
          // but never ship the home page's islands here.
          const code = await (await request.get(src)).text()
          for (const island of ['MobileMenu', 'DemoForm', 'aria-expanded'])
            expect(code.includes(island), `${legal.path}: ${src} contains ${island}`).toBe(false)
          expect(code.length, `${legal.path}: ${src}`).toBeLessThan(4_000)
        }
        expect(bytes).toBeLessThan(homeBytes)
      }
    },
  )

  test('the sitemap lists them', { tag: '@http' }, async ({ request }) => {
    const xml = await (await request.get('/sitemap.xml')).text()
    for (const legal of LEGAL_PAGES) expect(xml).toContain(`${legal.path}</loc>`)
  })
})

test.describe('footer links', { tag: '@full' }, () => {
  test('every footer link resolves to a 200', async ({ page, request }) => {
    await gotoHome(page)
    const hrefs = await page
      .getByRole('contentinfo')
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
    expect(hrefs.length).toBeGreaterThan(8)
    for (const href of hrefs) {
      // mailto: (the encarregado) is not an HTTP address.
      if (href.startsWith('mailto:')) continue
      const response = await request.get(href)
      expect(response.status(), href).toBe(200)
    }
  })
})

test.describe('privacy notice at the form', { tag: '@full' }, () => {
  test('says what the data is for and links to the policy in a new tab', async ({
    page,
    context,
  }) => {
    await gotoHome(page)
    await scrollToSection(page, 'contato')
    const form = demoForm(page)
    const notice = form.getByText(/Usamos estes dados só para responder/)
    await expect(notice).toBeVisible()
    const link = notice.getByRole('link', { name: /Política de Privacidade \(abre em nova aba\)/ })
    await expect(link).toHaveAttribute('href', '/privacidade')
    await expect(link).toHaveAttribute('target', '_blank')
    // Beside the button, after it in reading order.
    const button = form.getByRole('button', { name: /solicitar demonstração/i })
    expect(
      await button.evaluate(
        (node, other) =>
          Boolean(node.compareDocumentPosition(other!) & Node.DOCUMENT_POSITION_FOLLOWING),
        await notice.elementHandle(),
      ),
    ).toBe(true)
    // One checkbox only, the WhatsApp opt-in, and it is never pre-ticked (consent is given, not
    // presumed).
    const checkbox = form.getByRole('checkbox')
    await expect(checkbox).toHaveCount(1)
    await expect(checkbox).toHaveAccessibleName(/WhatsApp/)
    await expect(checkbox).not.toBeChecked()

    await form.getByLabel(/^Nome/).fill('Ana Souza')
    const [policy] = await Promise.all([context.waitForEvent('page'), link.click()])
    await policy.waitForLoadState()
    await expect(
      policy.getByRole('heading', { level: 1, name: 'Política de Privacidade' }),
    ).toBeVisible()
    // What was typed is still there in the first tab.
    await expect(form.getByLabel(/^Nome/)).toHaveValue('Ana Souza')
  })
})

test.describe('no cookies, no third parties', () => {
  test('no public route sends Set-Cookie', { tag: '@http' }, async ({ request }) => {
    for (const path of [...PUBLIC_ROUTES, '/sitemap.xml', '/robots.txt', '/icon.svg']) {
      const response = await request.get(path, { maxRedirects: 0 })
      expect(response.headers()['set-cookie'], path).toBeUndefined()
    }
  })

  // npm test: the home page; test:all: every public route.
  for (const path of PUBLIC_ROUTES) {
    test(
      `${path}: the browser keeps no cookie and asks no other origin`,
      { tag: path === '/' ? [] : '@full' },
      async ({ page, context, baseURL }) => {
        const requests = await visit(page, path)
        const origin = new URL(baseURL!).origin
        const elsewhere = requests.filter(
          (url) => url.protocol !== 'data:' && url.origin !== origin,
        )
        expect(elsewhere.map((url) => url.href)).toEqual([])
        expect(await context.cookies()).toEqual([])
        expect(await page.evaluate(() => document.cookie)).toBe('')
      },
    )
  }
})

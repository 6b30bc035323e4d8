import { content, expect, gotoHome, SECTION_IDS, section, test } from './fixtures'

test.describe('home page structure', () => {
  test.beforeEach(async ({ page }) => {
    await gotoHome(page)
  })

  test(
    'is in Brazilian Portuguese, has one h1 and a favicon',
    { tag: '@full' },
    async ({ page, request }) => {
      await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR')
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(content.headline)

      const icon = page.locator('head link[rel~="icon"]').first()
      const href = await icon.getAttribute('href')
      expect(href, 'favicon link').toBeTruthy()
      const response = await request.get(href!)
      expect(response.status()).toBe(200)
      expect(response.headers()['content-type']).toMatch(/^image\//)
    },
  )

  test('has the header, hero, the five sections in order, and the footer', async ({ page }) => {
    for (const id of SECTION_IDS) {
      await expect(page.locator(`[id="${id}"]`), `exactly one #${id}`).toHaveCount(1)
      // Each section is a landmark named by its heading.
      await expect(page.getByRole('region', { name: content.sectionHeading(id) })).toHaveAttribute(
        'id',
        id,
      )
    }

    const order = await page.evaluate(
      (ids) => {
        const elements = [
          document.querySelector('header'),
          document.querySelector('h1')?.closest('section'),
          ...ids.map((id) => document.getElementById(id)),
          document.querySelector('footer'),
        ]
        return elements.map((element) =>
          element ? Math.round(element.getBoundingClientRect().top + window.scrollY) : null,
        )
      },
      [...SECTION_IDS],
    )
    expect(order).not.toContain(null)
    // The header is fixed at the top; everything else follows in the SPEC's order.
    const [header, ...rest] = order as number[]
    expect(header).toBe(0)
    expect(rest).toEqual([...rest].sort((a, b) => a - b))
    expect(new Set(rest).size).toBe(rest.length)
  })

  test(
    'the header carries the brand tagline and stays fixed while scrolling',
    { tag: '@full' },
    async ({ page }) => {
      const header = page.getByRole('banner')
      await expect(header.getByText('Fleet Safety Technology', { exact: true })).toBeVisible()
      await page.evaluate(() => window.scrollTo({ top: 2000, behavior: 'instant' }))
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
      const box = await header.boundingBox()
      expect(box?.y).toBe(0)
      await expect(header.getByText('Fleet Safety Technology', { exact: true })).toBeInViewport()
    },
  )

  test(
    'the hero has its two calls to action and the three statistics',
    { tag: '@full' },
    async ({ page }) => {
      const hero = page.getByRole('region', { name: content.headline })
      await expect(hero.getByRole('link', { name: 'Solicitar Demonstração' })).toHaveAttribute(
        'href',
        '#contato',
      )
      await expect(hero.getByRole('link', { name: 'Como Funciona', exact: true })).toHaveAttribute(
        'href',
        '#como-funciona',
      )
      // Each statistic is a term (its label) with the figure as its first definition.
      await expect(hero.getByRole('term')).toHaveText([/acidentes/i, /monitoramento/i, /LGPD/])
      for (const value of ['90%', '24/7', '100%']) {
        await expect(
          hero.getByRole('definition').filter({ hasText: new RegExp(`^${value}$`) }),
        ).toBeVisible()
      }
    },
  )

  test('every section shows its content', async ({ page }) => {
    await expect(section(page, 'sobre').getByRole('heading', { level: 3 })).toHaveText([
      /hardware/i,
      /IA/,
      /protocolo/i,
    ])

    const steps = section(page, 'como-funciona').getByRole('list').first().getByRole('listitem')
    await expect(steps).toHaveCount(4)
    await expect(steps.getByRole('heading', { level: 3 })).toHaveText([
      /Detecção/,
      /Análise/,
      /Ação/,
      /Resolução/,
    ])

    const tecnologia = section(page, 'tecnologia')
    await expect(tecnologia.getByRole('article')).toHaveCount(6)
    await expect(tecnologia.getByRole('heading', { name: 'Especificações técnicas' })).toBeVisible()
    for (const value of [
      '98,5%',
      '< 2 s',
      '99,9%',
      'Android 8.0+',
      'AES-256',
      'TLS 1.3',
      'RESTful',
    ]) {
      await expect(tecnologia.getByRole('definition').filter({ hasText: value })).toHaveCount(1)
    }

    const beneficios = section(page, 'beneficios')
    await expect(beneficios.getByRole('article')).toHaveCount(6)
    await expect(beneficios.getByText('R$ 50 mil+')).toBeVisible()
    await expect(beneficios.getByText('95%+')).toBeVisible()
    for (const value of ['6 meses', '300%', 'R$ 150 mil']) {
      await expect(beneficios.getByRole('definition').filter({ hasText: value })).toBeVisible()
    }
    await expect(beneficios.getByRole('heading', { name: 'Mercados Atendidos' })).toBeVisible()
    const markets = beneficios
      .getByRole('heading', { name: 'Mercados Atendidos' })
      .locator('xpath=..')
      .getByRole('listitem')
    await expect(markets).toHaveText([/cargas/i, /ônibus/i, /aplicativo.*fase futura/i])

    const contato = section(page, 'contato')
    await expect(contato.getByRole('link', { name: content.contact.email })).toHaveAttribute(
      'href',
      `mailto:${content.contact.email}`,
    )
    await expect(contato.getByRole('link', { name: content.contact.phone })).toHaveAttribute(
      'href',
      /^tel:\+55\d{10,11}$/,
    )
    await expect(contato.getByText(/segunda a sexta.*8h.*18h/i)).toBeVisible()
    await expect(contato.getByText('São José dos Campos, SP')).toBeVisible()
    await expect(contato.getByText(/todo o Brasil/i)).toBeVisible()
    for (const offer of [
      /demonstração personalizada/i,
      /análise de ROI/i,
      /proposta comercial/i,
      /suporte técnico/i,
    ]) {
      await expect(contato.getByRole('listitem').filter({ hasText: offer })).toHaveCount(1)
    }
  })

  test('fits the viewport without horizontal scrolling', { tag: '@full' }, async ({ page }) => {
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }))
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
  })
})

test('the home page loads without console errors or failed requests', async ({
  page,
  consoleErrors,
}) => {
  const failed: string[] = []
  page.on('requestfailed', (request) =>
    failed.push(`${request.url()}: ${request.failure()?.errorText}`),
  )
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: HTTP ${response.status()}`)
  })
  const response = await page.goto('/')
  expect(response?.status()).toBe(200)
  await page.waitForLoadState('networkidle')
  expect(consoleErrors).toEqual([])
  expect(failed).toEqual([])
})

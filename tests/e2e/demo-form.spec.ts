// The demo-request form as a visitor meets it, on the default server (embedded lead store), at
// both widths. The Supabase path and its failures are in demo-request-store.spec.ts.
import {
  demoForm,
  expect,
  expectErrorToast,
  expectSuccessToast,
  expectThankYou,
  expectValuesKept,
  field,
  fillDemoForm,
  formShownAt,
  openDemoForm,
  runClockBehind,
  submitButton,
  test,
  VALID,
  waitLikeAPerson,
} from './demo-fixtures'
import {
  expectIslandHydrated,
  expectNoAxeViolations,
  gotoHome,
  scrollToSection,
  waitForPageSettled,
} from './fixtures'

test(
  'has the fields of SPEC section 3, labelled, with the right types and hints',
  { tag: '@full' },
  async ({ page }) => {
    await openDemoForm(page)
    for (const name of ['name', 'email', 'company'] as const) {
      await expect(field(page, name)).toHaveAttribute('required', '')
      // The native attribute says it to assistive technology; aria-required beside it is invalid.
      await expect(field(page, name)).not.toHaveAttribute('aria-required')
    }
    await expect(field(page, 'email')).toHaveAttribute('type', 'email')
    await expect(field(page, 'email')).toHaveAttribute('autocomplete', 'email')
    await expect(field(page, 'name')).toHaveAttribute('autocomplete', 'name')
    await expect(field(page, 'company')).toHaveAttribute('autocomplete', 'organization')
    await expect(field(page, 'phone')).toHaveAttribute('placeholder', '(11) 99999-9999')
    await expect(field(page, 'phone')).not.toHaveAttribute('required', /.*/)
    await expect(field(page, 'message')).toHaveAttribute('rows', '4')
    const options = await field(page, 'fleetSize').locator('option').allTextContents()
    expect(options).toEqual([
      'Selecione...',
      '1 a 10 veículos',
      '11 a 50 veículos',
      '51 a 100 veículos',
      '101 a 500 veículos',
      'Mais de 500 veículos',
    ])
    const values = await field(page, 'fleetSize')
      .locator('option')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLOptionElement).value))
    expect(values).toEqual(['', '1-10', '11-50', '51-100', '101-500', '500+'])
  },
)

test(
  'empty required fields get Portuguese messages beside them, announced and focused',
  { tag: '@full' },
  async ({ page }) => {
    await openDemoForm(page)
    await submitButton(page).click()
    const expected = {
      name: 'Informe seu nome.',
      email: 'Informe seu e-mail.',
      company: 'Informe o nome da empresa.',
    } as const
    for (const [name, message] of Object.entries(expected) as Array<
      [keyof typeof expected, string]
    >) {
      await expect(field(page, name)).toHaveAttribute('aria-invalid', 'true')
      await expect(field(page, name)).toHaveAccessibleDescription(message)
    }
    await expect(field(page, 'name')).toBeFocused()
    await expectNoAxeViolations(page)
  },
)

test('invalid values are explained and nothing is sent', async ({ page }) => {
  const posts: string[] = []
  page.on('request', (request) => {
    // The visit beacon (docs/analytics.md) posts too; only the form's posts count here.
    if (request.method() === 'POST' && !request.url().endsWith('/api/analytics/view'))
      posts.push(request.url())
  })
  await openDemoForm(page)
  await fillDemoForm(page, { ...VALID, email: 'maria@empresa', phone: '(11) 1234' })
  await submitButton(page).click()
  await expect(field(page, 'email')).toHaveAccessibleDescription(
    'Informe um e-mail válido, como nome@empresa.com.br.',
  )
  await expect(field(page, 'phone')).toHaveAccessibleDescription(
    'Informe um celular ou telefone fixo do Brasil com DDD, como (11) 99999-9999. Números de outros países não são aceitos.',
  )
  expect(posts).toEqual([])

  // Fixing the values clears the messages.
  await field(page, 'email').fill(VALID.email)
  await field(page, 'phone').fill(VALID.phone)
  await expect(field(page, 'email')).not.toHaveAttribute('aria-invalid', 'true')
  await expect(field(page, 'phone')).not.toHaveAttribute('aria-invalid', 'true')
})

test(
  'a valid request shows the toast and the thank-you view, and can start over',
  { tag: '@full' },
  async ({ page }) => {
    const openedAt = await openDemoForm(page)
    await fillDemoForm(page)
    await waitLikeAPerson(page, openedAt)
    await submitButton(page).click()
    await expectSuccessToast(page)
    await expectThankYou(page)
    await expectNoAxeViolations(page)
    await page.getByRole('link', { name: 'Enviar Nova Solicitação' }).click()
    await expect(demoForm(page)).toBeVisible()
    await expect(field(page, 'name')).toHaveValue('')
  },
)

test(
  'a field the server refuses after the browser accepted it is marked, announced and focused, with every value kept',
  { tag: '@full' },
  async ({ page }) => {
    // A post changed on its way (a proxy, a tampered client): the message arrives longer than the
    // browser allowed, so only the server refuses it. The page still holds what the visitor typed.
    await page.route('**/*', async (route) => {
      const request = route.request()
      if (request.method() !== 'POST' || !request.headers()['next-action']) return route.fallback()
      const body = request.postData() ?? ''
      await route.continue({
        postData: body.replace(
          /(name="(?:[^"]*_)?message"\r\n\r\n)[^\r]*/,
          `$1${'x'.repeat(2001)}`,
        ),
      })
    })
    const values = { ...VALID }
    const openedAt = await openDemoForm(page)
    await fillDemoForm(page, values)
    await waitLikeAPerson(page, openedAt)
    await submitButton(page).click()

    const refused = field(page, 'message')
    await expect(refused).toHaveAttribute('aria-invalid', 'true', { timeout: 15_000 })
    await expect(refused).toHaveAccessibleDescription(
      'A mensagem pode ter no máximo 2000 caracteres.',
    )
    await expect(refused).toBeFocused()
    await expect(field(page, 'name')).not.toHaveAttribute('aria-invalid', 'true')
    await expect(
      page.getByRole('status').filter({ hasText: 'Erro ao enviar solicitação' }),
    ).toHaveText('Erro ao enviar solicitação. Revise os campos destacados.')
    await expectErrorToast(page)
    await expectValuesKept(page, values)
  },
)

test(
  'the form hydrates when the visitor nears it, and keeps what was typed before',
  { tag: '@full' },
  async ({ page }) => {
    // Scripts asked for after the page has started are held until released: the form's code
    // then arrives after the visitor has begun typing, as it can on a weak signal.
    let pageStarted = false
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const held: string[] = []
    await page.route('**/*.js', async (route) => {
      if (pageStarted) {
        held.push(route.request().url())
        await released
      }
      await route.continue()
    })
    // The form writes the time it was shown by the page's clock, run a fill time behind.
    await runClockBehind(page)
    const viewSent = page.waitForRequest((request) => request.url().endsWith('/api/analytics/view'))
    await gotoHome(page)
    // The beacon loads its own chunk (web-vitals) once the view is sent, which on a busy machine
    // came after hydration: only what is asked for after that is held.
    await viewSent
    await page.waitForLoadState('networkidle')
    pageStarted = true
    // A dozen screens above the form, its code has not been asked for once the page has settled
    // (nearing it below asks for a chunk the load did not); the server's form is in the document.
    await waitForPageSettled(page)
    expect(held).toEqual([])
    await expect(demoForm(page)).not.toHaveAttribute('novalidate', '')

    // Near it, it is the server's form, with the browser's own validation, while its code loads.
    await scrollToSection(page, 'contato')
    await expect(demoForm(page)).not.toHaveAttribute('novalidate', '')
    await field(page, 'name').scrollIntoViewIfNeeded()
    await expect.poll(() => held.length).toBeGreaterThan(0)
    await field(page, 'name').fill(VALID.name)
    await expect(demoForm(page)).not.toHaveAttribute('novalidate', '')
    release()

    await expectIslandHydrated(demoForm(page))
    await expect(field(page, 'name')).toHaveValue(VALID.name)
    const { email, company, phone, fleetSize, message } = VALID
    await fillDemoForm(page, { email, company, phone, fleetSize, message })
    await waitLikeAPerson(page, formShownAt())
    await submitButton(page).click()
    await expectSuccessToast(page)
    await expectThankYou(page)
  },
)

test.describe('with JavaScript disabled', { tag: '@full' }, () => {
  test.use({ javaScriptEnabled: false })

  test('the browser checks the required fields itself', async ({ page }) => {
    await page.goto('/#contato')
    await expect(demoForm(page)).not.toHaveAttribute('novalidate', /.*/)
    await submitButton(page).click()
    const missing = await field(page, 'name').evaluate(
      (input: HTMLInputElement) => input.validity.valueMissing,
    )
    expect(missing).toBe(true)
    await expect(page).toHaveURL(/#contato$/)
  })

  test('the form posts to the Server Action and the answer is the thank-you view', async ({
    page,
  }) => {
    await page.goto('/#contato')
    await fillDemoForm(page)
    await submitButton(page).click()
    await expectThankYou(page)
  })

  test('a server-side refusal comes back with the errors and every value typed', async ({
    page,
  }) => {
    await page.goto('/#contato')
    const invalid = { ...VALID, phone: '(11) 1234' }
    await fillDemoForm(page, invalid)
    await submitButton(page).click()
    await expect(field(page, 'phone')).toHaveAccessibleDescription(
      'Informe um celular ou telefone fixo do Brasil com DDD, como (11) 99999-9999. Números de outros países não são aceitos.',
    )
    for (const [name, value] of Object.entries(invalid) as Array<[keyof typeof VALID, string]>) {
      await expect(field(page, name)).toHaveValue(value)
    }
  })
})

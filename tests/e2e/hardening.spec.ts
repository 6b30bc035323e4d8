// Response headers on every kind of route, and a page that runs under its CSP without a single
// violation. (Server Actions refusing a foreign Origin: demo-request-store.spec.ts.)
import type { APIResponse, Page } from '@playwright/test'

import {
  expect,
  expectThankYou,
  fillDemoForm,
  openDemoForm,
  submitButton,
  test,
  waitLikeAPerson,
} from './demo-fixtures'

/** `default-src 'self'; object-src 'none'` → { 'default-src': ["'self'"], 'object-src': ["'none'"] } */
function parseCsp(header: string | undefined): Record<string, string[]> {
  const directives: Record<string, string[]> = {}
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) directives[name.toLowerCase()] = sources
  }
  return directives
}

const ROUTES = {
  home: '/',
  notFound: '/pagina-que-nao-existe',
  robots: '/robots.txt',
  studio: '/studio',
} as const

function expectCommonHeaders(response: APIResponse) {
  const headers = response.headers()
  expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
  const permissions = (headers['permissions-policy'] ?? '').split(',').map((item) => item.trim())
  expect(permissions).toEqual(
    expect.arrayContaining(['camera=()', 'microphone=()', 'geolocation=()']),
  )
  expect(headers['x-powered-by']).toBeUndefined()
  // One policy per response: a second header would be combined with the first by the browser.
  expect(
    response.headersArray().filter((h) => h.name.toLowerCase() === 'content-security-policy'),
  ).toHaveLength(1)
}

/** The directives no route may loosen, the Studio's included. */
function expectBaseline(csp: Record<string, string[]>) {
  expect(csp['default-src']).toEqual(["'self'"])
  expect(csp['object-src']).toEqual(["'none'"])
  expect(csp['base-uri']).toEqual(["'self'"])
  expect(csp['form-action']).toEqual(["'self'"])
  for (const [directive, sources] of Object.entries(csp)) {
    expect(sources, `${directive} allows any origin`).not.toContain('*')
    expect(sources, `${directive} allows any http(s) origin`).not.toContain('https:')
    expect(sources, `${directive} allows any origin over http`).not.toContain('http:')
  }
}

for (const [name, path] of Object.entries(ROUTES).filter(([key]) => key !== 'studio')) {
  test(
    `${name} (${path}) carries the site's security headers and strict CSP`,
    { tag: '@http' },
    async ({ request }) => {
      const response = await request.get(path)
      expect(response.status()).toBe(name === 'notFound' ? 404 : 200)
      expectCommonHeaders(response)
      const csp = parseCsp(response.headers()['content-security-policy'])
      expectBaseline(csp)
      expect(csp['frame-ancestors']).toEqual(["'none'"])
      // The public page only ever talks to its own origin (the Server Action posts to '/').
      expect(csp['connect-src']).toEqual(["'self'"])
      expect(csp['script-src']).not.toContain("'unsafe-eval'")
      expect(csp['script-src']?.every((source) => source.startsWith("'"))).toBe(true)
    },
  )
}

test(
  '/studio gets its own, wider CSP, still without plugins, <base> or foreign framing',
  { tag: '@http' },
  async ({ request }) => {
    const response = await request.get(ROUTES.studio)
    expect(response.status()).toBe(200)
    expectCommonHeaders(response)
    const csp = parseCsp(response.headers()['content-security-policy'])
    expectBaseline(csp)
    // What the Studio needs and the public page does not get.
    expect(csp['script-src']).toContain("'unsafe-eval'")
    expect(csp['connect-src']).toEqual(
      expect.arrayContaining(["'self'", 'https://*.api.sanity.io']),
    )
    // The Studio's check for a newer version of itself (issue 52), on this route only.
    expect(csp['connect-src']).toContain('https://sanity-cdn.com')
    // The Presentation tool frames the site from the Studio: same origin only.
    expect(csp['frame-ancestors']).toEqual(["'self'"])
  },
)

/**
 * Records CSP violations from both sources a browser offers: the `securitypolicyviolation` DOM
 * event (registered before any page script runs) and Chromium's console message.
 */
async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = []
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) fromConsole.push(message.text())
  })
  await page.addInitScript(() => {
    const store: string[] = []
    ;(window as unknown as { __cspViolations: string[] }).__cspViolations = store
    document.addEventListener('securitypolicyviolation', (event) => {
      store.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`)
    })
  })
  return async () => {
    const fromEvents = await page
      .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
      .catch(() => [])
    return [...fromEvents, ...fromConsole]
  }
}

test('the home page hydrates and sends the form with zero CSP violations', async ({ page }) => {
  const violations = await watchCspViolations(page)
  const openedAt = await openDemoForm(page)
  await page.waitForLoadState('networkidle')
  expect(await violations()).toEqual([])

  // Touching the form loads its validation and toasts; sending calls the Server Action.
  await fillDemoForm(page)
  await waitLikeAPerson(page, openedAt)
  await submitButton(page).click()
  await expectThankYou(page)
  await page.waitForLoadState('networkidle')
  expect(await violations()).toEqual([])
})

test('the not-found page loads with zero CSP violations', { tag: '@full' }, async ({ page }) => {
  const violations = await watchCspViolations(page)
  const response = await page.goto(ROUTES.notFound)
  expect(response?.status()).toBe(404)
  await page.waitForLoadState('networkidle')
  expect(await violations()).toEqual([])
})

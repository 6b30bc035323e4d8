// The deterministic half of the performance budget: bytes, not timings, so the result does not
// depend on the machine. `npm run bench` measures the same first-load JS (same module) plus the
// timing budgets, which are not part of `npm test`.
import { readdir } from 'node:fs/promises'
import path from 'node:path'

import { BUILDS } from '../../scripts/e2e-builds.cjs'
import {
  FIRST_LOAD_JS_BUDGET_BYTES,
  formatKiB,
  measureFirstLoadJs,
  SITE_JS_BUDGET_BYTES,
} from '../../scripts/lib/first-load-js.mjs'
import { expect, gotoHome, scrollToSection, test } from './fixtures'
import { demoForm, field } from './demo-fixtures'
import { SERVERS } from './servers'

test(
  `first-load JS of / is at most ${formatKiB(FIRST_LOAD_JS_BUDGET_BYTES)} gzip`,
  { tag: '@http' },
  async () => {
    const result = await measureFirstLoadJs({
      baseUrl: SERVERS.site.url,
      distDir: path.join(__dirname, '..', '..', BUILDS.site.distDir),
    })
    const breakdown = result.scripts.map(
      (script) => `${script.file} ${script.share} ${script.gzipBytes} B`,
    )
    // A page with no scripts at all would pass the budget while proving nothing.
    expect(result.frameworkBytes, breakdown.join('\n')).toBeGreaterThan(0)
    expect(result.siteBytes, breakdown.join('\n')).toBeGreaterThan(0)
    expect(
      result.totalBytes,
      `first-load JS ${formatKiB(result.totalBytes)} (framework ${formatKiB(result.frameworkBytes)}, ` +
        `site ${formatKiB(result.siteBytes)}):\n${breakdown.join('\n')}`,
    ).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES)
    expect(
      result.siteBytes,
      `the site's own first-load JS (budget ${formatKiB(SITE_JS_BUDGET_BYTES)}):\n${breakdown.join('\n')}`,
    ).toBeLessThanOrEqual(SITE_JS_BUDGET_BYTES)
  },
)

test(
  'the home page loads nothing from another origin, before or after touching the form',
  { tag: '@full' },
  async ({ page, baseURL }) => {
    const origin = new URL(baseURL ?? SERVERS.site.url).origin
    const foreign: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.protocol === 'data:' || url.protocol === 'blob:') return
      if (url.origin !== origin) foreign.push(`${request.resourceType()} ${request.url()}`)
    })
    await gotoHome(page)
    // The HTML itself names only our own origin for scripts, styles, fonts and icons.
    const referenced = await page.evaluate(() =>
      [
        ...Array.from(document.querySelectorAll('script[src]'), (element) =>
          element.getAttribute('src'),
        ),
        ...Array.from(document.querySelectorAll('link[href]'), (element) =>
          element.getAttribute('rel') === 'canonical' ? null : element.getAttribute('href'),
        ),
      ].flatMap((value) => (value ? [new URL(value, document.baseURI).href] : [])),
    )
    expect(referenced.length).toBeGreaterThan(0)
    expect(referenced.filter((url) => new URL(url).origin !== origin)).toEqual([])

    // Focusing the form loads its code, validation and toasts: those chunks must be ours as well.
    const lazyChunks = page.waitForResponse((response) => response.url().endsWith('.js'))
    await scrollToSection(page, 'contato')
    await field(page, 'name').focus()
    await lazyChunks
    await expect(demoForm(page)).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(foreign).toEqual([])
  },
)

test(
  'the standalone server ships what runs, not the project around it',
  { tag: '@http' },
  async () => {
    // A file read with a path Turbopack cannot bound traces the whole project into it (source,
    // tests, docs, test results): lib/social-image.ts marks its public/ reads for that reason.
    const standalone = path.join(__dirname, '..', '..', BUILDS.site.distDir, 'standalone')
    const shipped = await readdir(standalone)
    expect(shipped).toContain('server.js')
    expect(shipped).toContain('public')
    const project = ['tests', 'docs', 'scripts', 'components', 'test-results', 'README.md', '.ci']
    expect(shipped.filter((entry) => project.includes(entry))).toEqual([])
  },
)

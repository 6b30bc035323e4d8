// Keeps what made the page cheap to render (see scripts/lib/page-weight.mjs): icons drawn from
// one sprite (two nodes each instead of lucide's inline paths) and no markup the visitor never
// needs. The budgets leave room for a few more cards, images or notices; a change that brings
// back inline icon paths, or repeats a section's markup, fails here long before Lighthouse
// notices on a slow phone.
import { LAZY_BLOCK } from '../../components/render-all'
import { pageWeight } from '../../scripts/lib/page-weight.mjs'
import { expect, expectWithinPageWeight, gotoHome, test } from './fixtures'
import { SERVERS } from './servers'

test(
  'the served home page stays within its markup, RSC payload and element budgets',
  { tag: '@http' },
  async ({ request }) => {
    const response = await request.get(SERVERS.site.url)
    expect(response.status()).toBe(200)
    const weight = expectWithinPageWeight(await response.text(), 200)
    expect(weight.rscPayloadBytes).toBeGreaterThan(10_000)
  },
)

test(
  'the stylesheet is inlined, and copied into the RSC payload no more than Next does',
  { tag: '@http' },
  async ({ request }) => {
    const html = await (await request.get(SERVERS.site.url)).text()
    const weight = pageWeight(html)
    // No render-blocking request before the headline can paint (next.config.ts, inlineCss).
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/)
    expect(weight.stylesheetBytes).toBeGreaterThan(10_000)
    // Next 16.4 also writes its text into the inline payload twice (the page's tree and the built-in
    // global-error's), unread; we patch nothing to remove them (docs/upgrading-next.md). A third
    // copy fails here; so does an upgrade that drops one: then lower the HTML budget by its weight.
    expect(weight.stylesheetCopies).toBe(2)
  },
)

test(
  'the hydrated page keeps the stylesheet the server sent, whole and once',
  { tag: '@full' },
  async ({ page }) => {
    // React adopts the server's <style> by its href rather than adding the payload's copy.
    await gotoHome(page)
    const styles = await page.evaluate(() =>
      [...document.querySelectorAll('style, link[rel="stylesheet"]')].map((element) => ({
        tag: element.tagName,
        href: element.getAttribute('data-href') ?? element.getAttribute('href'),
        length: element.textContent?.length ?? 0,
      })),
    )
    expect(styles).toHaveLength(1)
    expect(styles[0]?.tag).toBe('STYLE')
    expect(styles[0]?.length).toBeGreaterThan(10_000)
    // And its rules still apply (the headline's `text-balance`; the browser's default is `wrap`).
    const wrap = await page
      .getByRole('heading', { level: 1 })
      .evaluate((heading) => getComputedStyle(heading).getPropertyValue('text-wrap-style'))
    expect(wrap).toBe('balance')
  },
)

test('icons are drawn from the sprite, not inlined', { tag: '@http' }, async ({ request }) => {
  const html = await (await request.get(SERVERS.site.url)).text()
  const fromSprite =
    html.match(
      /<span aria-hidden="true" class="icon[^"]*" style="--icon:url\([^)"]+\.svg#[a-z-]+\)"><\/span>/g,
    ) ?? []
  expect(fromSprite.length).toBeGreaterThan(20)
  // Inline SVG is left for what the sprite cannot hold: the social brand glyphs of the footer.
  expect(html.match(/<svg\b/g)?.length ?? 0).toBeLessThanOrEqual(4)
  // A <use> would have Chrome style and lay out its copy even inside a skipped block.
  expect(html).not.toContain('<use')
})

// Chrome's autofill styles and lays out, at load, every lazy block that holds a form field,
// skipped or not; what sits beside the fields is a lazy part of its own, styled as one element
// (LAZY_PART, docs/speed.md). Counted on the DOM: each such block's elements, a lazy part without
// a field as one: on the home page 227 before the parts, 127 with them (the campaign page: 102,
// 72). Each part made eager again (contact details, cards, markets, figures) adds 12 or more.
for (const [path, budget] of [
  ['/', 135],
  ['/p/onibus-rodoviarios', 80],
] as const) {
  test(
    `${path}: a lazy block holding a form field holds little else`,
    { tag: '@full' },
    async ({ page }) => {
      await page.goto(path)
      const styledForFields = await page.evaluate((lazy) => {
        const fields = document.querySelectorAll('input:not([type=hidden]), select, textarea')
        const forced = new Set<Element>()
        for (const field of fields)
          for (let element = field.parentElement; element; element = element.parentElement)
            if (element.classList.contains(lazy)) forced.add(element)
        let count = 0
        const walk = (element: Element) => {
          count++
          if (!element.classList.contains(lazy) || forced.has(element))
            for (const child of element.children) walk(child)
        }
        for (const block of forced)
          if (![...forced].some((other) => other !== block && other.contains(block))) walk(block)
        return count
      }, LAZY_BLOCK)
      expect(styledForFields).toBeGreaterThan(0)
      expect(styledForFields).toBeLessThanOrEqual(budget)
    },
  )
}

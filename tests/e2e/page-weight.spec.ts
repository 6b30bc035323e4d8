// Keeps what made the page cheap to render (see scripts/lib/page-weight.mjs): icons drawn from
// one sprite (two nodes each instead of lucide's inline paths) and no markup the visitor never
// needs. The budgets leave room for a few more cards, images or notices; a change that brings
// back inline icon paths, or repeats a section's markup, fails here long before Lighthouse
// notices on a slow phone.
import { PAGE_WEIGHT_BUDGET, pageWeight } from '../../scripts/lib/page-weight.mjs'
import { expect, test } from './fixtures'
import { SERVERS } from './servers'

test('the served home page stays within its markup, RSC payload and element budgets', async ({
  request,
}) => {
  const response = await request.get(SERVERS.site.url)
  expect(response.status()).toBe(200)
  const weight = pageWeight(await response.text())
  const report = JSON.stringify({ weight, budget: PAGE_WEIGHT_BUDGET })
  // A page that lost its content would pass every budget while proving nothing.
  expect(weight.elements, report).toBeGreaterThan(200)
  expect(weight.rscPayloadBytes, report).toBeGreaterThan(10_000)
  expect(weight.elements, report).toBeLessThanOrEqual(PAGE_WEIGHT_BUDGET.elements)
  expect(weight.rscPayloadBytes, report).toBeLessThanOrEqual(PAGE_WEIGHT_BUDGET.rscPayloadBytes)
  expect(weight.htmlBytes, report).toBeLessThanOrEqual(PAGE_WEIGHT_BUDGET.htmlBytes)
})

test('icons are drawn from the sprite, not inlined', async ({ request }) => {
  const html = await (await request.get(SERVERS.site.url)).text()
  const svgs = [...html.matchAll(/<svg\b[^>]*>([\s\S]*?)<\/svg>/g)].map((match) => match[1] ?? '')
  const fromSprite = svgs.filter((inner) =>
    /^<use href="[^"]+\.svg#[a-z-]+"\/?>(<\/use>)?$/.test(inner),
  )
  expect(fromSprite.length).toBeGreaterThan(20)
  // Inline SVG is left for what the sprite cannot hold: the social brand glyphs of the footer.
  expect(svgs.length - fromSprite.length).toBeLessThanOrEqual(4)
})

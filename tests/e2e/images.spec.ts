import { readFileSync } from 'node:fs'
import path from 'node:path'

import { expect, gotoHome, isNarrow, test, waitForPageSettled } from './fixtures'

// The product visual and every other <img> on the page, on the bundled dataset (`site` build), at
// 1280 px and at 375 px.

/** The hero visual's alt text as the bundled dataset stores it (its accessible name). */
function heroAlt(): string {
  const file = path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson')
  const page = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { _id: string; hero?: { visual?: { alt?: string } } })
    .find((doc) => doc._id === 'landingPage')
  const alt = page?.hero?.visual?.alt
  if (!alt) throw new Error('The bundled dataset has no hero visual with alt text.')
  return alt
}

/**
 * Scrolls to the bottom in viewport steps, so every lazy image loads, then back to the top. Paced
 * from here, not by requestAnimationFrame inside the page: in CI (two loaded cores) a loop of
 * frames there once never ended and the test timed out at 60 s.
 */
async function scrollThrough(page: import('@playwright/test').Page) {
  const { height, step } = await page.evaluate(() => ({
    height: document.documentElement.scrollHeight,
    step: Math.max(100, Math.floor(window.innerHeight * 0.8)),
  }))
  for (let y = 0; y < height; y += step) {
    // Two frames: the lazy images now in view are asked for (their observer runs at a frame).
    await page.evaluate(
      (top) =>
        new Promise((resolve) => {
          window.scrollTo({ top, behavior: 'instant' })
          requestAnimationFrame(() => requestAnimationFrame(resolve))
        }),
      y,
    )
  }
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
}

test.describe('images', () => {
  test('every <img> has an alt attribute and an intrinsic size, and loads', async ({
    page,
    consoleErrors,
  }) => {
    await gotoHome(page)
    await scrollThrough(page)
    const images = await page.locator('img').evaluateAll((elements) =>
      (elements as HTMLImageElement[]).map((img) => ({
        src: img.currentSrc || img.src,
        alt: img.getAttribute('alt'),
        width: Number(img.getAttribute('width')),
        height: Number(img.getAttribute('height')),
      })),
    )
    expect(images.length).toBeGreaterThan(0)
    for (const image of images) {
      expect(image.alt, `${image.src} has an alt attribute`).not.toBeNull()
      expect(image.width, `${image.src} has a width`).toBeGreaterThan(0)
      expect(image.height, `${image.src} has a height`).toBeGreaterThan(0)
    }
    // Each one actually decodes (a CSP block or a 404 would leave it at 0 x 0).
    for (const img of await page.locator('img').all()) {
      await img.scrollIntoViewIfNeeded()
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
        .toBe(true)
    }
    expect(consoleErrors).toEqual([])
  })

  test(
    'images cause no layout shift while the page loads and scrolls',
    { tag: '@full' },
    async ({ page }) => {
      await page.addInitScript(() => {
        const w = window as unknown as { __imageShifts: string[]; __cls: number }
        w.__imageShifts = []
        w.__cls = 0
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as Array<{
            value: number
            hadRecentInput: boolean
            sources?: Array<{ node?: Node | null }>
          }>) {
            if (entry.hadRecentInput) continue
            w.__cls += entry.value
            for (const source of entry.sources ?? []) {
              const node = source.node
              const element = node instanceof Element ? node : null
              if (element && (element.matches('img') || element.querySelector('img'))) {
                w.__imageShifts.push(element.outerHTML.slice(0, 120))
              }
            }
          }
        }).observe({ type: 'layout-shift', buffered: true })
      })
      await gotoHome(page)
      await scrollThrough(page)
      // Every image has arrived (and moved whatever it was going to), and the page has settled.
      await expect
        .poll(() =>
          page
            .locator('img')
            .evaluateAll((images) => (images as HTMLImageElement[]).every((img) => img.complete)),
        )
        .toBe(true)
      await waitForPageSettled(page)
      const { imageShifts, cls } = await page.evaluate(() => {
        const w = window as unknown as { __imageShifts: string[]; __cls: number }
        return { imageShifts: w.__imageShifts, cls: w.__cls }
      })
      expect(imageShifts, 'layout shifts caused by images').toEqual([])
      expect(cls, 'cumulative layout shift').toBeLessThan(0.01)
    },
  )

  test(
    'the hero visual shows the product: beside the headline on desktop, after it on a phone',
    { tag: '@full' },
    async ({ page }) => {
      await gotoHome(page)
      const visual = page.getByRole('img', { name: heroAlt() })
      const headline = page.getByRole('heading', { level: 1 })
      await expect(visual).toHaveCount(1)
      const h1 = (await headline.boundingBox())!
      if (isNarrow(page)) {
        // Below the headline (and its figures), so it never competes with it for the first paint.
        await visual.scrollIntoViewIfNeeded()
        await expect(visual).toBeInViewport()
        const box = (await visual.boundingBox())!
        const top = await visual.evaluate((el) => el.getBoundingClientRect().top + window.scrollY)
        expect(top).toBeGreaterThan(h1.y + h1.height)
        expect(box.width).toBeGreaterThan(300)
      } else {
        await expect(visual).toBeInViewport({ ratio: 0.6 })
        const box = (await visual.boundingBox())!
        expect(box.x, 'to the right of the headline').toBeGreaterThanOrEqual(h1.x + h1.width)
        // Side by side: their vertical extents overlap.
        expect(box.y).toBeLessThan(h1.y + h1.height)
        expect(box.y + box.height).toBeGreaterThan(h1.y)
        expect(box.width).toBeGreaterThan(380)
      }
    },
  )

  test(
    'the hero visual is preloaded only where it is above the fold',
    { tag: '@http' },
    async ({ request }) => {
      const html = await (await request.get('/')).text()
      const preloads = [...html.matchAll(/<link[^>]+rel="preload"[^>]+as="image"[^>]*>/g)].map(
        (match) => match[0],
      )
      expect(preloads).toHaveLength(1)
      expect(preloads[0]).toContain('media="(min-width: 1024px)"')
      expect(preloads[0]).toMatch(/fetchPriority="high"/i)
      // Lazy on the <img> itself: a phone fetches it only as it nears the viewport.
      const hero = [...html.matchAll(/<img[^>]*>/g)]
        .map((match) => match[0])
        .find((tag) => tag.includes(`alt="${heroAlt()}"`))
      expect(hero).toContain('loading="lazy"')
    },
  )

  test(
    'the bundled build allows images from its own origin only',
    { tag: '@http' },
    async ({ request }) => {
      const csp = (await request.get('/')).headers()['content-security-policy'] ?? ''
      expect(csp.split('; ').find((directive) => directive.startsWith('img-src'))).toBe(
        "img-src 'self' data: blob:",
      )
    },
  )
})

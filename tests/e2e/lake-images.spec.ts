import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

import { sanityWebhook } from '../support/sanity-webhook.mjs'
import { resetLake } from './lake-fixtures'
import { LAKE_REVALIDATE_SECRET, SERVERS } from './servers'

/*
 * Images from the Content Lake, against the lake build and its double
 * (tests/support/content-lake-double.mjs), whose image host SANITY_IMAGE_HOST points at so the
 * browser never leaves the machine. Runs in the Playwright project "lake", one spec of that build
 * at a time, because it changes the double's content and revalidates the page.
 */

const SITE = SERVERS.lake.url
const LAKE = SERVERS.lakeDouble.url
const IMAGE_PATH = `${LAKE}/images/testproj/production/`

/** A photo an editor uploaded: 1600 x 1200, opaque, with its LQIP. */
const SHA1 = '5d41402abc4b2a76b9719d911017c592ab3f09c1'
const PHOTO = {
  _id: `image-${SHA1}-1600x1200-jpg`,
  _type: 'sanity.imageAsset',
  extension: 'jpg',
  url: `${IMAGE_PATH}${SHA1}-1600x1200.jpg`,
  metadata: {
    _type: 'sanity.imageMetadata',
    dimensions: { _type: 'sanity.imageDimensions', width: 1600, height: 1200, aspectRatio: 4 / 3 },
    lqip: 'data:image/jpeg;base64,/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
    hasAlpha: false,
    isOpaque: true,
  },
}
const image = (alt: string) => ({
  _type: 'image',
  asset: { _type: 'reference', _ref: PHOTO._id },
  alt,
  // 25% cut off the left, 10% off the top and the bottom: 1200 x 960 remain.
  crop: { _type: 'sanity.imageCrop', top: 0.1, bottom: 0.1, left: 0.25, right: 0 },
  // The interesting part sits at the right.
  hotspot: { _type: 'sanity.imageHotspot', x: 0.8, y: 0.5, width: 0.2, height: 0.2 },
})
const HERO_ALT = 'Motorista com o celular da Vigia preso ao painel do caminhão'

async function lake(request: APIRequestContext, endpoint: string, data?: unknown) {
  const response = await request.post(`${LAKE}${endpoint}`, { data })
  expect(response.ok(), `${endpoint} on the Content Lake double`).toBe(true)
  return response.json()
}

/** Publishes a change of `type` the way Sanity's webhook does. */
async function publish(request: APIRequestContext, type: string, id: string) {
  const delivery = await sanityWebhook({ _type: type, _id: id }, LAKE_REVALIDATE_SECRET)
  const response = await request.post(`${SITE}/api/revalidate`, {
    data: delivery.body,
    headers: delivery.headers,
  })
  expect(response.status()).toBe(200)
}

/** Every URL of an <img> (src and each srcset candidate), with its width descriptor. */
async function urlsOf(page: Page, selector: string) {
  const img = page.locator(selector).first()
  const [src, srcset] = await Promise.all([img.getAttribute('src'), img.getAttribute('srcset')])
  return [
    { url: new URL(src!), descriptor: null as string | null },
    ...srcset!.split(', ').map((entry) => {
      const [url, descriptor] = entry.split(' ')
      return { url: new URL(url!), descriptor: descriptor ?? null }
    }),
  ]
}

test.describe('images from the Content Lake', () => {
  test.describe.configure({ mode: 'serial' })

  test.beforeAll(async ({ request }) => {
    await resetLake(request)
  })

  test.afterAll(async ({ request }) => {
    await lake(request, '/__reset', {})
    await publish(request, 'landingPage', 'landingPage')
    await publish(request, 'siteSettings', 'siteSettings')
  })

  test('the imported illustration loads from the image host the CSP names, and nothing wider', async ({
    page,
  }) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    const response = await page.goto(`${SITE}/`)
    const csp = response?.headers()['content-security-policy'] ?? ''
    expect(csp.split('; ').find((directive) => directive.startsWith('img-src'))).toBe(
      `img-src 'self' data: blob: ${new URL(LAKE).origin}`,
    )

    const hero = page.locator('#inicio img')
    await expect(hero).toHaveCount(1)
    // The bundled PNG, uploaded by the double as `sanity dataset import` would: Sanity's id scheme.
    expect(await hero.getAttribute('src')).toMatch(
      new RegExp(`^${IMAGE_PATH}[0-9a-f]{40}-1200x1200\\.png\\?`),
    )
    await expect(hero).toHaveAttribute('width', '1200')
    await expect(hero).toHaveAttribute('height', '1200')
    await hero.scrollIntoViewIfNeeded()
    await expect
      .poll(() => hero.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true)
    expect(errors).toEqual([])
  })

  test('an uploaded photo renders on the image host with its crop, hotspot and size', async ({
    page,
    request,
  }) => {
    await lake(request, '/__mutate', {
      mutations: [
        { createOrReplace: PHOTO },
        { patch: { id: 'landingPage', set: { 'hero.visual': image(HERO_ALT) } } },
        { patch: { id: 'siteSettings', set: { logo: image('Logotipo da Vigia') } } },
      ],
    })
    await publish(request, 'landingPage', 'landingPage')
    await publish(request, 'siteSettings', 'siteSettings')

    await expect
      .poll(
        async () => {
          // Each tag's fetch is refreshed on its own; wait for both: the hero's photo and the
          // logo (the only square cut, fit=crop).
          const html = await (await request.get(`${SITE}/`)).text()
          return html.includes(SHA1) && html.includes('fit=crop')
        },
        { timeout: 15_000 },
      )
      .toBe(true)
    await page.goto(`${SITE}/`)

    // The hero: the editor's crop as a rect, every width from the CDN in the best format, and
    // the cropped size as the box, painted with the LQIP until the photo arrives.
    const hero = page.getByRole('img', { name: HERO_ALT })
    await expect(hero).toHaveAttribute('width', '1200')
    await expect(hero).toHaveAttribute('height', '960')
    expect(await hero.getAttribute('sizes')).toContain('480px')
    expect(await hero.getAttribute('style')).toContain(PHOTO.metadata.lqip)
    const heroUrls = await urlsOf(page, '#inicio img')
    expect(heroUrls.map((u) => u.descriptor).at(-1)).toBe('1200w')
    for (const { url, descriptor } of heroUrls) {
      expect(url.href.startsWith(`${IMAGE_PATH}${SHA1}-1600x1200.jpg?`)).toBe(true)
      expect(url.searchParams.get('rect')).toBe('400,120,1200,960')
      expect(url.searchParams.get('auto')).toBe('format')
      if (descriptor) expect(`${url.searchParams.get('w')}w`).toBe(descriptor)
    }

    // The logo is drawn square: the frame is cut around the hotspot, inside the crop. It is
    // decorative there (the brand name is written beside it).
    const logo = page.getByRole('banner').locator('img')
    await expect(logo).toHaveAttribute('alt', '')
    await expect(logo).toHaveAttribute('width', '960')
    await expect(logo).toHaveAttribute('height', '960')
    for (const { url } of await urlsOf(page, 'header img')) {
      expect(url.searchParams.get('rect')).toBe('640,120,960,960')
      expect(url.searchParams.get('fit')).toBe('crop')
      expect(url.searchParams.get('w')).toBe(url.searchParams.get('h'))
    }
  })
})

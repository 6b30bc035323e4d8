// What search engines and social networks read: metadata from the site-settings document,
// JSON-LD, the sitemap, robots.txt and the generated social image.
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { parseDataset } from '../../lib/content/bundled'
import type { SiteSettings } from '../../sanity/types'
import { expect, test } from './fixtures'

// The tests' servers leave NEXT_PUBLIC_SITE_URL unset: lib/env.ts falls back to this origin.
const SITE_URL = 'http://localhost:3000/'

/** The fields of the bundled siteSettings document this file checks, failing loudly when absent. */
function bundledSettings() {
  const file = path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson')
  const doc = parseDataset(readFileSync(file, 'utf8')).find((d) => d._id === 'siteSettings') as
    SiteSettings | undefined
  const { brandName, seo, contact } = doc ?? {}
  if (!brandName || !seo?.title || !seo.description || !contact?.phone || !contact.email) {
    throw new Error('The bundled siteSettings document lacks a field the SEO tests check.')
  }
  return {
    brandName,
    title: seo.title,
    description: seo.description,
    phone: contact.phone,
    email: contact.email,
  }
}

const settings = bundledSettings()

test.describe('metadata of the home page', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/')
  })

  test('title and description come from the site settings', { tag: '@full' }, async ({ page }) => {
    await expect(page).toHaveTitle(settings.title)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      settings.description,
    )
  })

  test(
    'the canonical URL is absolute and names the home page of the site URL',
    { tag: '@full' },
    async ({ page }) => {
      const canonical = page.locator('link[rel="canonical"]')
      await expect(canonical).toHaveCount(1)
      const href = (await canonical.getAttribute('href')) ?? ''
      expect(href).toMatch(/^https?:\/\//)
      // Next writes the origin alone for the root path; as a URL it is the same page as "…/".
      expect(new URL(href).href).toBe(SITE_URL)
    },
  )

  test('OpenGraph and Twitter cards carry the title, description and the social image', async ({
    page,
  }) => {
    const meta = (attribute: 'property' | 'name', key: string) =>
      page.locator(`meta[${attribute}="${key}"]`)
    await expect(meta('property', 'og:title')).toHaveAttribute('content', settings.title)
    await expect(meta('property', 'og:description')).toHaveAttribute(
      'content',
      settings.description,
    )
    await expect(meta('property', 'og:type')).toHaveAttribute('content', 'website')
    await expect(meta('property', 'og:locale')).toHaveAttribute('content', 'pt_BR')
    await expect(meta('name', 'twitter:card')).toHaveAttribute('content', 'summary_large_image')
    await expect(meta('name', 'twitter:title')).toHaveAttribute('content', settings.title)

    const image = (await meta('property', 'og:image').getAttribute('content')) ?? ''
    const imageUrl = new URL(image)
    expect(imageUrl.origin).toBe(new URL(SITE_URL).origin)
    expect(imageUrl.pathname).toBe('/opengraph-image')
    await expect(meta('property', 'og:image:width')).toHaveAttribute('content', '1200')
    await expect(meta('property', 'og:image:height')).toHaveAttribute('content', '630')
    await expect(meta('name', 'twitter:image')).toHaveAttribute('content', image)
  })

  test('declares a theme colour for the browser UI', { tag: '@full' }, async ({ page }) => {
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute(
      'content',
      /^#[0-9a-f]{6}$/i,
    )
  })

  test(
    'JSON-LD describes the Organization and its ContactPoint',
    { tag: '@full' },
    async ({ page }) => {
      const scripts = await page.locator('script[type="application/ld+json"]').allTextContents()
      expect(scripts).toHaveLength(1)
      const data = JSON.parse(scripts[0] ?? '')
      expect(data['@context']).toBe('https://schema.org')
      expect(data['@type']).toBe('Organization')
      expect(data.name).toBe(settings.brandName)
      expect(new URL(data.url).href).toBe(SITE_URL)

      const contact = data.contactPoint
      expect(contact['@type']).toBe('ContactPoint')
      expect(contact.telephone.replace(/\D/g, '')).toBe(`55${settings.phone.replace(/\D/g, '')}`)
      expect(contact.email).toBe(settings.email)
      expect(contact.areaServed).toBe('BR')
      expect(contact.hoursAvailable).toEqual({
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '08:00',
        closes: '18:00',
      })
    },
  )
})

test(
  '/sitemap.xml lists the home page first, then the legal, campaign, article and material pages, nothing else',
  { tag: '@http' },
  async ({ request }) => {
    const response = await request.get('/sitemap.xml')
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toContain('xml')
    const body = await response.text()
    const locations = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])
    // legal.spec.ts, campaign-pages.spec.ts and the article specs check those entries; this keeps
    // anything else out.
    const pages = locations.slice(1).map((location) => new URL(location ?? '', SITE_URL).pathname)
    expect(locations[0]).toBe(SITE_URL)
    expect(pages.toSorted()).toEqual([
      '/acessibilidade',
      '/conteudos',
      '/conteudos/categoria/fadiga-e-seguranca',
      '/conteudos/categoria/lgpd-e-privacidade',
      '/conteudos/como-o-celular-detecta-fadiga',
      '/conteudos/lgpd-camera-na-cabine',
      '/conteudos/protocolo-de-resposta-apos-alerta',
      '/lgpd',
      '/materiais/checklist-camera-cabine-lgpd',
      '/p/onibus-rodoviarios',
      '/privacidade',
      '/termos',
    ])
  },
)

test(
  '/robots.txt allows the site, disallows /studio and /api/, and names the sitemap',
  { tag: '@http' },
  async ({ request }) => {
    const response = await request.get('/robots.txt')
    expect(response.status()).toBe(200)
    const lines = (await response.text()).split('\n').map((line) => line.trim())
    expect(lines).toContain('User-Agent: *')
    expect(lines).toContain('Allow: /')
    expect(lines).toContain('Disallow: /studio')
    expect(lines).toContain('Disallow: /api/')
    expect(lines).toContain(`Sitemap: ${SITE_URL}sitemap.xml`)
  },
)

test('/opengraph-image is a 1200×630 PNG', { tag: '@http' }, async ({ request }) => {
  const response = await request.get('/opengraph-image')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toBe('image/png')
  const png = await response.body()
  // PNG signature, then the IHDR chunk: width and height as 32-bit big-endian integers.
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR')
  expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({
    width: 1200,
    height: 630,
  })
})

import 'server-only'

import type { Metadata } from 'next'
import { stegaClean } from 'next-sanity'

import type { SiteSettings } from '@/lib/content'
import { serverEnv } from '@/lib/env'
import { SOCIAL_IMAGE_SIZE } from '@/lib/social-image'
import { ARTICLES_FEED_PATH } from '@/sanity/lib/paths'

/** What a page's <head> says about it; `pageMetadata` turns it into Next's Metadata. */
export type PageMetadataInput = {
  /** The canonical path, also the Open Graph URL. */
  path: string
  title: string | null | undefined
  description: string | null | undefined
  settings: SiteSettings | null
  type?: 'website' | 'article'
  /** The Twitter card: a large image, or the small summary (legal pages). */
  card?: 'summary' | 'summary_large_image'
  noindex?: boolean
  /** A share image (1200 × 630) for both cards. Without it, the nearest opengraph-image file. */
  shareImage?: string
  /** An image for the Twitter card only (an article: Open Graph gets its opengraph-image file). */
  twitterImage?: string
  /** Links the articles' RSS feed (every /conteudos page). */
  feed?: boolean
  /** Open Graph's article fields. */
  article?: { publishedTime?: string; modifiedTime?: string; authors?: string[]; section?: string }
}

const clean = (value: string | null | undefined) =>
  value ? stegaClean(value) || undefined : undefined

/**
 * The one builder of page metadata: title, description, canonical URL, robots, the Open Graph and
 * Twitter cards, and the feed link. Every page's generateMetadata (and the root layout's, which is
 * the home page's) calls it, so the pages describe themselves alike; strings are stega-cleaned, as
 * draft mode's values carry invisible edit markers that have no place in a <head>.
 */
export function pageMetadata(input: PageMetadataInput): Metadata {
  const { path, settings, type = 'website', card = 'summary_large_image' } = input
  const title = clean(input.title)
  const description = clean(input.description)
  const brand = clean(settings?.brandName)
  const image = input.shareImage ?? input.twitterImage
  return {
    title,
    description,
    alternates: {
      canonical: path,
      ...(input.feed
        ? {
            types: {
              'application/rss+xml': [
                { url: ARTICLES_FEED_PATH, title: `${brand ?? ''} — Conteúdos`.trim() },
              ],
            },
          }
        : {}),
    },
    ...(input.noindex ? { robots: { index: false, follow: true } } : {}),
    openGraph: {
      type,
      locale: 'pt_BR',
      url: path,
      siteName: brand,
      title,
      description,
      ...input.article,
      ...(input.shareImage ? { images: [{ url: input.shareImage, ...SOCIAL_IMAGE_SIZE }] } : {}),
    },
    twitter: { card, title, description, ...(image ? { images: [image] } : {}) },
  }
}

/** "<title> | <brand>". */
export function withBrand(title: string, settings: SiteSettings | null): string {
  const brand = clean(settings?.brandName)
  return brand ? `${stegaClean(title)} | ${brand}` : stegaClean(title)
}

/** schema.org Organization with its ContactPoint, for search engines' knowledge panels. */
export function organizationJsonLd(settings: SiteSettings | null) {
  const contact = settings?.contact
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: settings?.brandName ?? undefined,
    slogan: settings?.tagline ?? undefined,
    url: serverEnv.siteUrl,
    logo: new URL('/icon.svg', serverEnv.siteUrl).toString(),
    email: contact?.email ?? undefined,
    address: contact?.location
      ? { '@type': 'PostalAddress', addressLocality: contact.location, addressCountry: 'BR' }
      : undefined,
    contactPoint: contact
      ? {
          '@type': 'ContactPoint',
          contactType: 'sales',
          telephone: contact.phone ? `+55 ${contact.phone}` : undefined,
          email: contact.email ?? undefined,
          areaServed: 'BR',
          availableLanguage: 'Portuguese',
          hoursAvailable: {
            '@type': 'OpeningHoursSpecification',
            dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
            opens: '08:00',
            closes: '18:00',
          },
        }
      : undefined,
  }
}

/** JSON for a <script type="application/ld+json"> (lib/script-json.ts). */
export { scriptJson as jsonLdScript } from '@/lib/script-json'

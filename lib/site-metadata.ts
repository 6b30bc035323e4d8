import 'server-only'

import type { Metadata } from 'next'

import type { SiteSettings } from '@/lib/content'
import { serverEnv } from '@/lib/env'

/** Page metadata from the site-settings document, with the canonical URL from the env. */
export function metadataFromSettings(settings: SiteSettings | null): Metadata {
  const title = settings?.seo?.title ?? settings?.brandName ?? undefined
  const description = settings?.seo?.description ?? undefined
  return {
    metadataBase: new URL(serverEnv.siteUrl),
    title,
    description,
    alternates: { canonical: '/' },
    openGraph: {
      type: 'website',
      locale: 'pt_BR',
      url: '/',
      siteName: settings?.brandName ?? undefined,
      title,
      description,
    },
    twitter: { card: 'summary_large_image', title, description },
  }
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

/** JSON for a <script type="application/ld+json">, with '<' escaped so text cannot close the tag. */
export function jsonLdScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}

import 'server-only'

import type { Metadata } from 'next'
import { stegaClean } from 'next-sanity'

import type { SiteSettings } from '@/lib/content'
import { ARTICLES_FEED_PATH } from '@/sanity/lib/paths'

/** Title, description, canonical URL, social card and feed link of a /conteudos page. */
export function articlesMetadata({
  title,
  description,
  path,
  settings,
  type = 'website',
}: {
  title: string
  description: string | undefined
  path: string
  settings: SiteSettings | null
  type?: 'website' | 'article'
}): Metadata {
  const brand = settings?.brandName ? stegaClean(settings.brandName) : undefined
  return {
    title,
    description,
    alternates: {
      canonical: path,
      types: {
        'application/rss+xml': [
          { url: ARTICLES_FEED_PATH, title: `${brand ?? ''} — Conteúdos`.trim() },
        ],
      },
    },
    openGraph: { type, locale: 'pt_BR', url: path, siteName: brand, title, description },
    twitter: { card: 'summary_large_image', title, description },
  }
}

/** "<title> | <brand>". */
export function withBrand(title: string, settings: SiteSettings | null): string {
  const brand = settings?.brandName ? stegaClean(settings.brandName) : undefined
  return brand ? `${stegaClean(title)} | ${brand}` : stegaClean(title)
}

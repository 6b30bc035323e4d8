import 'server-only'

import { draftMode } from 'next/headers'
import type { QueryParams } from 'next-sanity'

import {
  LANDING_PAGE_QUERY,
  LEGAL_PAGE_QUERY,
  LEGAL_PAGE_SLUGS_QUERY,
  SITE_SETTINGS_QUERY,
} from '@/sanity/lib/queries'
import type {
  LANDING_PAGE_QUERY_RESULT,
  LEGAL_PAGE_QUERY_RESULT,
  LEGAL_PAGE_SLUGS_QUERY_RESULT,
  SITE_SETTINGS_QUERY_RESULT,
} from '@/sanity/types'
import { isSanityConfigured } from '@/sanity/env'

import { queryDataset } from './bundled'
import { CONTENT_TAGS } from './tags'

// The one way the site reads content: the Sanity Content Lake when a project is configured, the
// bundled NDJSON dataset otherwise. A configured project that cannot be reached throws, on
// purpose: a build fails loudly, and an ISR regeneration keeps serving the last good page,
// instead of either silently publishing the bundled default.
async function fetchContent<T>(
  query: string,
  params: QueryParams,
  tags: string[],
  { publishedOnly = false } = {},
): Promise<T> {
  if (isSanityConfigured) {
    const [{ fetchFromSanity }, draft] = await Promise.all([
      import('./sanity-client'),
      publishedOnly ? false : isDraftModeEnabled(),
    ])
    return fetchFromSanity<T>(query, params, tags, { draft })
  }
  return queryDataset<T>(query, params)
}

// draftMode() is false while a page is prerendered, so the public page stays static; it is true
// only for an editor whose request carries the cookie /api/draft-mode/enable set.
async function isDraftModeEnabled(): Promise<boolean> {
  try {
    return (await draftMode()).isEnabled
  } catch (error) {
    // Outside a Next request (scripts, unit tests) there is no draft mode to read.
    if (error instanceof Error && error.message.includes('outside a request scope')) return false
    throw error
  }
}

export function getSiteSettings() {
  return fetchContent<SITE_SETTINGS_QUERY_RESULT>(SITE_SETTINGS_QUERY, {}, [
    CONTENT_TAGS.siteSettings,
  ])
}

export function getLandingPage() {
  return fetchContent<LANDING_PAGE_QUERY_RESULT>(LANDING_PAGE_QUERY, {}, [
    CONTENT_TAGS.landingPage,
    CONTENT_TAGS.claim,
  ])
}

export function getLegalPage(slug: string) {
  return fetchContent<LEGAL_PAGE_QUERY_RESULT>(LEGAL_PAGE_QUERY, { slug }, [CONTENT_TAGS.legalPage])
}

/**
 * Every published legal page's path segment and date, for the prerender and the sitemap. Never
 * draft-aware: generateStaticParams runs without a request, where draftMode() throws.
 */
export function getLegalPageSlugs() {
  return fetchContent<LEGAL_PAGE_SLUGS_QUERY_RESULT>(
    LEGAL_PAGE_SLUGS_QUERY,
    {},
    [CONTENT_TAGS.legalPage],
    { publishedOnly: true },
  )
}

export type SiteSettings = NonNullable<SITE_SETTINGS_QUERY_RESULT>
export type LandingPage = NonNullable<LANDING_PAGE_QUERY_RESULT>
export type LegalPage = NonNullable<LEGAL_PAGE_QUERY_RESULT>

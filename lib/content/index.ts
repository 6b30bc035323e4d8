import 'server-only'

import type { QueryParams } from 'next-sanity'

import { LANDING_PAGE_QUERY, SITE_SETTINGS_QUERY } from '@/sanity/lib/queries'
import type { LANDING_PAGE_QUERY_RESULT, SITE_SETTINGS_QUERY_RESULT } from '@/sanity/types'
import { isSanityConfigured } from '@/sanity/env'

import { queryDataset } from './bundled'
import { CONTENT_TAGS } from './tags'

// The one way the site reads content: the Sanity Content Lake when a project is configured, the
// bundled NDJSON dataset otherwise. A configured project that cannot be reached throws, on
// purpose: a build fails loudly, and an ISR regeneration keeps serving the last good page,
// instead of either silently publishing the bundled default.
async function fetchContent<T>(query: string, params: QueryParams, tags: string[]): Promise<T> {
  if (isSanityConfigured) {
    const { fetchFromSanity } = await import('./sanity-client')
    return fetchFromSanity<T>(query, params, tags)
  }
  return queryDataset<T>(query, params)
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

export type SiteSettings = NonNullable<SITE_SETTINGS_QUERY_RESULT>
export type LandingPage = NonNullable<LANDING_PAGE_QUERY_RESULT>

import 'server-only'

import { createClient, type QueryParams } from 'next-sanity'

import { serverEnv } from '@/lib/env'
import { apiVersion, dataset, projectId } from '@/sanity/env'

import { REVALIDATE_SECONDS } from './tags'

const client = createClient({
  projectId,
  dataset,
  apiVersion,
  // The page is rebuilt only on publish (webhook) or after REVALIDATE_SECONDS, so the CDN's
  // extra staleness would only delay edits. https://www.sanity.io/docs/api-cdn
  useCdn: false,
  perspective: 'published',
  ...(serverEnv.sanityApiHost
    ? { apiHost: serverEnv.sanityApiHost, useProjectHostname: false }
    : {}),
})

export function fetchFromSanity<T>(query: string, params: QueryParams, tags: string[]) {
  return client.fetch<T>(query, params, {
    next: { revalidate: REVALIDATE_SECONDS, tags },
  })
}

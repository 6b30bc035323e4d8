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

// Values the page uses as keys, URLs or identifiers rather than prints: invisible stega
// characters in them would break icon lookups, anchors and links in the preview.
const NON_PRINTED_FIELDS = new Set([
  'icon',
  'anchor',
  'href',
  'platform',
  'email',
  'phone',
  'whatsappNumber',
  'whatsappGreeting',
  'seo',
  // Images: asset ids, URLs and metadata build image URLs, and alt text is read, not seen.
  'alt',
  'asset',
  'url',
  'extension',
  'metadata',
])

function readToken(): string {
  const token = serverEnv.sanityApiReadToken
  if (!token) {
    throw new Error(
      'Draft mode needs SANITY_API_READ_TOKEN (a Viewer token from sanity.io/manage) to read drafts.',
    )
  }
  return token
}

/** A client that can read drafts, for validating the Presentation tool's preview secret. */
export function draftModeClient() {
  return client.withConfig({ token: readToken(), useCdn: false })
}

export function fetchFromSanity<T>(
  query: string,
  params: QueryParams,
  tags: string[],
  { draft = false, fresh = false }: { draft?: boolean; fresh?: boolean } = {},
) {
  if (draft) {
    // Editors previewing drafts: never cached, drafts overlaid on published documents, and the
    // strings stega-encoded so <VisualEditing /> can map each text back to its field.
    return client.fetch<T>(query, params, {
      perspective: 'drafts',
      token: readToken(),
      useCdn: false,
      cache: 'no-store',
      stega: {
        enabled: true,
        studioUrl: '/studio',
        filter: (props) =>
          props.sourcePath.some((segment) => NON_PRINTED_FIELDS.has(String(segment)))
            ? false
            : props.filterDefault(props),
      },
    })
  }
  if (fresh) return client.fetch<T>(query, params, { cache: 'no-store' })
  return client.fetch<T>(query, params, {
    next: { revalidate: REVALIDATE_SECONDS, tags },
  })
}

/**
 * A query that needs the read token and must never be cached or stega-encoded: review links
 * (app/revisao/[token]). Raw perspective: the query names the exact documents it may read.
 */
export function fetchPrivate<T>(query: string, params: QueryParams) {
  return client.fetch<T>(query, params, {
    perspective: 'raw',
    token: readToken(),
    useCdn: false,
    cache: 'no-store',
  })
}

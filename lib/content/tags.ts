import { ROUTED_DOCUMENT_TYPES, type RoutedDocumentType } from '@/sanity/lib/routed-type-rules'

// Cache tags for CMS content. One per document type: a fetch declares the tags of every type its
// query reads, and the Sanity webhook revalidates the tag of the type that changed, so publishing
// a claim regenerates every page that shows a figure. Routed types (sanity/lib/routed-type-rules.ts)
// get theirs from the registry, and also tag each document's own page (documentTag), so an
// article publish leaves the other articles cached.
const OTHER_TYPES = [
  'landingPage',
  'siteSettings',
  'claim',
  'redirect',
  'announcement',
  'author',
  'roiCalculator',
  'experiment',
] as const

const typeTag = <T extends string>(type: T) => `sanity:${type}` as const

export const CONTENT_TAGS = Object.fromEntries(
  [...OTHER_TYPES, ...ROUTED_DOCUMENT_TYPES].map((type) => [type, typeTag(type)]),
) as { [T in (typeof OTHER_TYPES)[number] | RoutedDocumentType]: `sanity:${T}` }

export type ContentType = keyof typeof CONTENT_TAGS

export function tagForType(type: string): string | undefined {
  return Object.hasOwn(CONTENT_TAGS, type) ? CONTENT_TAGS[type as ContentType] : undefined
}

/**
 * The tag of one document's own page data, by its type and slug (the page reads it by slug, so
 * the tag is known before the answer is), like the sync tags Sanity's Live Content API gives per
 * query result. The type's own tag (CONTENT_TAGS) then means "every list of that type": slug lists,
 * the listing, categories, feed, sitemap, routing table, latest-articles blocks.
 */
export function documentTag(type: string, slug: string): string {
  return `sanity:doc:${type}:${slug}`
}

/** On every document's own page data of a type: for a publish that cannot say which it changed. */
export function everyDocumentTag(type: string): string {
  return `sanity:doc:${type}`
}

/**
 * The related-articles list of every article in this category (an article shows the newest of
 * its categories): a publish that enters or leaves the newest of a category revalidates it.
 */
export function relatedTag(categoryId: string): string {
  return `sanity:related:${categoryId}`
}

/** On every related-articles list: revalidated when a publish cannot say which lists it changed. */
export const ANY_RELATED_TAG = 'sanity:related'

// Safety net if a webhook is ever missed: content is at most an hour stale.
// Exported for the fetch wrapper; the page's own `revalidate` must be a literal (Next reads it
// statically), so app/page.tsx repeats the number.
export const REVALIDATE_SECONDS = 3600

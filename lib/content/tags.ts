// Cache tags for CMS content, one per document type. A fetch declares the tags of every type its
// query reads, and the Sanity webhook revalidates the tag of the type that changed, so publishing
// a claim regenerates every page that shows a figure.
export const CONTENT_TAGS = {
  landingPage: 'sanity:landingPage',
  siteSettings: 'sanity:siteSettings',
  claim: 'sanity:claim',
} as const

export type ContentType = keyof typeof CONTENT_TAGS

export function tagForType(type: string): string | undefined {
  return Object.hasOwn(CONTENT_TAGS, type) ? CONTENT_TAGS[type as ContentType] : undefined
}

// Safety net if a webhook is ever missed: content is at most an hour stale.
// Exported for the fetch wrapper; the page's own `revalidate` must be a literal (Next reads it
// statically), so app/page.tsx repeats the number.
export const REVALIDATE_SECONDS = 3600

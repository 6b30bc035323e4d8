import { ARTICLES_FEED_PATH, ARTICLES_PREFIX, articlePath, categoryPath } from '@/sanity/lib/paths'

// Cache tags for CMS content, one per document type. A fetch declares the tags of every type its
// query reads, and the Sanity webhook revalidates the tag of the type that changed, so publishing
// a claim regenerates every page that shows a figure.
export const CONTENT_TAGS = {
  landingPage: 'sanity:landingPage',
  siteSettings: 'sanity:siteSettings',
  claim: 'sanity:claim',
  legalPage: 'sanity:legalPage',
  campaignPage: 'sanity:campaignPage',
  redirect: 'sanity:redirect',
  announcement: 'sanity:announcement',
  article: 'sanity:article',
  category: 'sanity:category',
  author: 'sanity:author',
  roiCalculator: 'sanity:roiCalculator',
} as const

/** The types whose publish changes the articles' pages, listing, feed and sitemap. */
export const ARTICLE_CONTENT_TYPES: ReadonlySet<string> = new Set(['article', 'category', 'author'])

export type ContentType = keyof typeof CONTENT_TAGS

export function tagForType(type: string): string | undefined {
  return Object.hasOwn(CONTENT_TAGS, type) ? CONTENT_TAGS[type as ContentType] : undefined
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

/**
 * The pages the webhook has regenerated at once after revalidating a type's tag, so the first
 * visitor already gets the new content: the home page; for a legal or campaign page the page
 * itself and the sitemap (the webhook's projection carries its slug, see docs/content.md); for a
 * redirect the map proxy.ts reads, then the route requests every redirect's path.
 */
export function pathsToWarm(type: string, slug: unknown): string[] {
  const valid = typeof slug === 'string' && SLUG.test(slug)
  if (type === 'legalPage') return valid ? [`/${slug}`, '/sitemap.xml'] : ['/sitemap.xml']
  // For a campaign page the routing table first: it lists the slugs that exist
  // (lib/known-paths.ts), and proxy.ts answers a slug it does not list with the 404 page; it
  // also carries the redirects of pages outside their visibility window.
  if (type === 'campaignPage')
    return valid
      ? ['/api/redirects', `/p/${slug}`, '/sitemap.xml']
      : ['/api/redirects', '/sitemap.xml']
  if (type === 'redirect') return ['/api/redirects']
  // The article's own page first, then what lists it; app/api/revalidate adds every other
  // article, listing and category page (articlePublishPaths in lib/content).
  // The routing table first here too: it lists the articles and categories (lib/known-paths.ts).
  if (type === 'article')
    return [
      '/api/redirects',
      ...(valid ? [articlePath(slug)] : []),
      ARTICLES_PREFIX,
      ARTICLES_FEED_PATH,
      '/sitemap.xml',
    ]
  if (type === 'category')
    return [
      '/api/redirects',
      ...(valid ? [categoryPath(slug)] : []),
      ARTICLES_PREFIX,
      ARTICLES_FEED_PATH,
      '/sitemap.xml',
    ]
  if (type === 'author') return [ARTICLES_PREFIX, ARTICLES_FEED_PATH]
  return ['/']
}

// Safety net if a webhook is ever missed: content is at most an hour stale.
// Exported for the fetch wrapper; the page's own `revalidate` must be a literal (Next reads it
// statically), so app/page.tsx repeats the number.
export const REVALIDATE_SECONDS = 3600

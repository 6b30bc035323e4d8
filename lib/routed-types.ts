import 'server-only'

import type { MetadataRoute } from 'next'

import {
  getArticlePublishFacts,
  getArticlesShowing,
  getArticleSlugs,
  getCampaignPageSlugs,
  getCategorySlugs,
  getLegalPageSlugs,
  getLiveArticleSlugs,
  getLiveCampaignPageSlugs,
  getRedirectPaths,
} from '@/lib/content'
import {
  ANY_RELATED_TAG,
  CONTENT_TAGS,
  documentTag,
  everyDocumentTag,
  relatedTag,
  type ContentType,
} from '@/lib/content/tags'
import type { VisibilityWindow } from '@/lib/content/visibility'
import { redirectSourcePaths } from '@/lib/redirect-map'
import { ROUTING_TABLE_PATH } from '@/lib/security/internal-request'
import {
  ARTICLES_FEED_PATH,
  ARTICLES_PER_PAGE,
  ARTICLES_PREFIX,
  ROUTED_TYPES,
  SLUG_PATTERN,
  listingPageCount,
  type RoutedTypeName,
} from '@/sanity/lib/paths'

/**
 * The routed document types, registered once (docs/routed-types.md): every page made from a
 * document, by the site's side of it. The address rules (prefix, path of a document, redirectable)
 * are in sanity/lib/paths.ts ROUTED_TYPES, shared with the Studio; this adds how the slugs are
 * listed, the cache tags, what a publish changes, the visibility window, the sitemap entry and how
 * many are prerendered. The sitemap, the known paths (lib/known-paths.ts, read by proxy.ts), the
 * routing table's window redirects (app/api/redirects), generateStaticParams, the webhook
 * (app/api/revalidate) and the CDN purge all loop over it.
 */

/** One published document of a routed type, as its slug list gives it. */
export type RoutedEntry = {
  slug: string
  lastModified?: string | null
  noindex?: boolean
  /** Its visibility window, for a windowed type. */
  window?: VisibilityWindow
  /** Where visitors go outside its window (the editor's choice), for a windowed type. */
  hiddenRedirect?: string | null
}

/**
 * The Sanity webhook's projection (docs/content.md, "Publishing: the webhook"): the document's
 * type, id and slug, and its slug, date and categories before the change, so a renamed page's old
 * address and the related lists it leaves are refreshed too.
 */
export const WEBHOOK_PROJECTION =
  '{_type, _id, "slug": slug.current, "before": before(){"slug": slug.current, publishedAt, "categories": categories[]._ref}}'

/** A published, unpublished or deleted document, as the webhook's projection gives it. */
export type PublishedChange = {
  type: string
  id: string
  slug?: string
  /** The document before this change (the projection's `before()`), absent for a creation. */
  before?: { slug?: string; publishedAt?: string; categories?: string[] }
}

/**
 * What a publish changes: the tags to revalidate, the site paths to regenerate at once (the
 * warm-up, in this order), and what to purge from a CDN: paths, and path prefixes for lists too
 * long to name (every article page, every page).
 */
export type PublishPlan = { tags: string[]; paths: string[]; purgePrefixes: string[] }

type SitemapRule = {
  changeFrequency: NonNullable<MetadataRoute.Sitemap[number]['changeFrequency']>
  /** By the entry's position in its list (the listing's first page ranks higher). */
  priority: (index: number) => number
}

export type RoutedType = {
  /** The Sanity document type its pages are made from; none for the listing's pages. */
  documentType?: ContentType
  /** Every published document's slug, whatever its window (routing table, known paths). */
  list: () => Promise<RoutedEntry[]>
  /** The ones live now, for the sitemap (the answer expires at the next boundary). */
  listLive: () => Promise<RoutedEntry[]>
  /**
   * For a type computed from another's list (the listing's pages from the articles): its entries
   * from that list, so a caller reading every type reads each list once (routedLists).
   */
  derive?: { from: RoutedTypeName; entries: (from: readonly RoutedEntry[]) => RoutedEntry[] }
  /** Names under the prefix the site serves besides its documents (the feed). */
  extraSlugs?: readonly string[]
  /** Whether its documents have a visibility window (and a redirect outside it). */
  windowed: boolean
  sitemap: SitemapRule
  /** generateStaticParams prerenders at most this many, newest first; the rest render on first request. */
  prerender: number
}

/** The newest articles prerendered at build time: the build no longer grows with the archive. */
export const PRERENDERED_ARTICLES = 50
/** The listing's first pages prerendered at build time. */
export const PRERENDERED_LISTING_PAGES = 5

const slugged = <T extends { slug?: string | null }>(items: readonly T[]) =>
  items.flatMap((item) => (item.slug ? [{ ...item, slug: item.slug }] : []))

function windowed(doc: {
  slug: string
  visibleFrom?: string | null
  visibleUntil?: string | null
  hiddenRedirect?: string | null
  noindex?: boolean | null
}) {
  return {
    slug: doc.slug,
    noindex: Boolean(doc.noindex),
    window: { visibleFrom: doc.visibleFrom, visibleUntil: doc.visibleUntil },
    hiddenRedirect: doc.hiddenRedirect,
  }
}

const articleEntries = (articles: Awaited<ReturnType<typeof getArticleSlugs>>) =>
  slugged(articles).map((article) => ({
    ...windowed(article),
    lastModified: article._updatedAt ?? article.publishedAt,
  }))

const campaignEntries = (pages: Awaited<ReturnType<typeof getCampaignPageSlugs>>) =>
  slugged(pages).map((page) => ({ ...windowed(page), lastModified: page._updatedAt }))

/** The listing's pages from the articles (newest first): a page changes when its newest does. */
const listingEntries = (articles: readonly RoutedEntry[]) =>
  Array.from({ length: listingPageCount(articles.length) }, (_, index) => ({
    slug: String(index + 1),
    lastModified: articles[index * ARTICLES_PER_PAGE]?.lastModified,
  }))

export const ROUTED: Record<RoutedTypeName, RoutedType> = {
  legalPage: {
    documentType: 'legalPage',
    list: async () =>
      slugged(await getLegalPageSlugs()).map((page) => ({
        slug: page.slug,
        lastModified: page.updatedAt,
      })),
    listLive: () => ROUTED.legalPage.list(),
    windowed: false,
    sitemap: { changeFrequency: 'yearly', priority: () => 0.3 },
    prerender: Infinity,
  },
  campaignPage: {
    documentType: 'campaignPage',
    list: async () => campaignEntries(await getCampaignPageSlugs()),
    listLive: async () => campaignEntries(await getLiveCampaignPageSlugs()),
    windowed: true,
    sitemap: { changeFrequency: 'monthly', priority: () => 0.7 },
    prerender: Infinity,
  },
  articleListing: {
    list: async () => listingEntries(await ROUTED.article.list()),
    listLive: async () => listingEntries(await ROUTED.article.listLive()),
    derive: { from: 'article', entries: listingEntries },
    windowed: false,
    sitemap: { changeFrequency: 'weekly', priority: (index) => (index === 0 ? 0.8 : 0.4) },
    prerender: PRERENDERED_LISTING_PAGES,
  },
  category: {
    documentType: 'category',
    list: async () =>
      slugged(await getCategorySlugs()).map((category) => ({
        slug: category.slug,
        lastModified: category.latest ?? category._updatedAt,
      })),
    listLive: () => ROUTED.category.list(),
    windowed: false,
    sitemap: { changeFrequency: 'weekly', priority: () => 0.5 },
    prerender: Infinity,
  },
  article: {
    documentType: 'article',
    list: async () => articleEntries(await getArticleSlugs()),
    listLive: async () => articleEntries(await getLiveArticleSlugs()),
    // The feed beside the articles (app/conteudos/feed.xml).
    extraSlugs: ['feed.xml'],
    windowed: true,
    sitemap: { changeFrequency: 'monthly', priority: () => 0.6 },
    prerender: PRERENDERED_ARTICLES,
  },
}

export const ROUTED_TYPE_NAMES = Object.keys(ROUTED) as RoutedTypeName[]

/**
 * Every routed type's entries, each Content Lake list read once: all published ones, or (`live`)
 * only those inside their window now.
 */
export async function routedLists({ live = false } = {}): Promise<
  Record<RoutedTypeName, RoutedEntry[]>
> {
  const read = ROUTED_TYPE_NAMES.filter((name) => !ROUTED[name].derive)
  const lists = await Promise.all(
    read.map((name) => (live ? ROUTED[name].listLive() : ROUTED[name].list())),
  )
  const entries = Object.fromEntries(read.map((name, index) => [name, lists[index]!]))
  for (const name of ROUTED_TYPE_NAMES) {
    const { derive } = ROUTED[name]
    if (derive) entries[name] = derive.entries(entries[derive.from]!)
  }
  return entries as Record<RoutedTypeName, RoutedEntry[]>
}

/** The path of the document `slug` of this routed type. */
export function routedPath(name: RoutedTypeName, slug: string): string {
  return ROUTED_TYPES[name].path(slug)
}

/**
 * generateStaticParams of a routed type's route: its newest `prerender` slugs (lists come newest
 * first where it matters); the others render on their first request and are cached
 * (dynamicParams), and proxy.ts still answers an unknown one with the 404 page.
 */
export async function staticParams<K extends string>(
  name: RoutedTypeName,
  key: K,
): Promise<Array<Record<K, string>>> {
  const routed = ROUTED[name]
  const entries = (await routed.list()).slice(0, routed.prerender)
  return entries.map((entry) => ({ [key]: entry.slug }) as Record<K, string>)
}

// --- What a publish changes ----------------------------------------------------------------

const validSlug = (slug: unknown): slug is string =>
  typeof slug === 'string' && SLUG_PATTERN.test(slug)

/** The routing table first: it lists the slugs that exist, and proxy.ts gates on it. */
const ROUTING = ROUTING_TABLE_PATH

function documentPaths(name: RoutedTypeName, change: PublishedChange) {
  const slugs = [change.slug, change.before?.slug].filter(validSlug)
  return {
    tags: [...new Set(slugs)].map((slug) => documentTag(name, slug)),
    paths: [...new Set(slugs)].map((slug) => routedPath(name, slug)),
  }
}

type Ranked = { publishedAt?: string | null; categories?: readonly (string | null)[] | null }
type Cutoff = { _id: string; publishedAt: string | null } | null

/**
 * Whether an article at this date shows in the related list of some article of category `c`:
 * related lists show the newest 12 of the article's categories, so only the newest 13 of a
 * category (the 13th being in the others' 12) ever show.
 */
function ranksInNewest(id: string, state: Ranked | undefined, cutoff: Cutoff): boolean {
  if (!state?.publishedAt) return false
  if (!cutoff?.publishedAt) return true
  if (state.publishedAt !== cutoff.publishedAt) return state.publishedAt > cutoff.publishedAt
  return id <= cutoff._id
}

async function articlePublish(change: PublishedChange): Promise<PublishPlan> {
  const own = documentPaths('article', change)
  const tags = [CONTENT_TAGS.article, ...own.tags]
  const paths = [ROUTING, ...own.paths]
  const purgePrefixes: string[] = []
  let facts: Awaited<ReturnType<typeof getArticlePublishFacts>> | undefined
  try {
    facts = await getArticlePublishFacts(
      change.id,
      (change.before?.categories ?? []).filter(Boolean),
    )
  } catch (error) {
    console.warn(`[revalidate] could not read what the article publish changes: ${String(error)}`)
  }
  if (!facts || (!facts.article && !change.before)) {
    // Which related lists it was in is unknown: every one (still no other article's own data).
    tags.push(ANY_RELATED_TAG)
    purgePrefixes.push(`${ARTICLES_PREFIX}/`)
  } else {
    const entered = facts.categories.filter(
      (category) =>
        ranksInNewest(change.id, facts.article ?? undefined, category.cutoff) ||
        ranksInNewest(change.id, change.before, category.cutoff),
    )
    tags.push(...entered.map((category) => relatedTag(category._id)))
    // The article pages that show it in their related list: too many to name.
    if (entered.length > 0) purgePrefixes.push(`${ARTICLES_PREFIX}/`)
  }
  const listingPage = facts?.article ? Math.floor(facts.article.newer / ARTICLES_PER_PAGE) + 1 : 1
  paths.push(
    routedPath('articleListing', String(listingPage)),
    ...(facts?.categories ?? []).flatMap((category) =>
      category.slug ? [routedPath('category', category.slug)] : [],
    ),
    ARTICLES_FEED_PATH,
    '/sitemap.xml',
    ...(facts?.latestBlocks ?? []).flatMap((slug) =>
      slug ? [routedPath('campaignPage', slug)] : [],
    ),
  )
  return { tags, paths, purgePrefixes }
}

/**
 * The article pages that show a category or an author (their own tags) and the related lists that
 * show those articles' cards (the tags of their categories). Unknown (the Content Lake did not
 * answer): every article page, as before there were per-document tags.
 */
async function articlesShowing(change: PublishedChange, kind: 'category' | 'author') {
  try {
    const articles = await getArticlesShowing(change.id)
    const slugs = articles.map((article) => article.slug).filter(validSlug)
    const tags = slugs.map((slug) => documentTag('article', slug))
    if (kind === 'category') {
      const categories = articles.flatMap((article) => article.categories ?? [])
      tags.push(relatedTag(change.id), ...categories.filter(Boolean).map((id) => relatedTag(id)))
    }
    return { tags: [...new Set(tags)] }
  } catch (error) {
    console.warn(`[revalidate] could not read which articles show this ${kind}: ${String(error)}`)
    return { tags: [everyDocumentTag('article'), ANY_RELATED_TAG] }
  }
}

/** Everything under the site: the types shown on every page (footer, figures, the bar). */
const EVERY_PAGE = '/'

const PUBLISHES: Partial<Record<ContentType, (change: PublishedChange) => Promise<PublishPlan>>> = {
  article: articlePublish,
  campaignPage: async (change) => {
    const own = documentPaths('campaignPage', change)
    return {
      tags: [CONTENT_TAGS.campaignPage, ...own.tags],
      paths: [ROUTING, ...own.paths, '/sitemap.xml'],
      purgePrefixes: [],
    }
  },
  legalPage: async (change) => {
    const own = documentPaths('legalPage', change)
    return {
      tags: [CONTENT_TAGS.legalPage, ...own.tags],
      paths: [...own.paths, '/sitemap.xml'],
      purgePrefixes: [],
    }
  },
  // A category's name and address show on its articles' pages, the cards of them (lists, related
  // lists) and its own page.
  category: async (change) => {
    const showing = await articlesShowing(change, 'category')
    return {
      tags: [CONTENT_TAGS.category, ...showing.tags],
      paths: [
        ROUTING,
        ...documentPaths('category', change).paths,
        ARTICLES_PREFIX,
        ARTICLES_FEED_PATH,
        '/sitemap.xml',
      ],
      purgePrefixes: [`${ARTICLES_PREFIX}/`, ARTICLES_PREFIX],
    }
  },
  // Bylines: the author's articles and the feed.
  author: async (change) => {
    const showing = await articlesShowing(change, 'author')
    return {
      tags: [CONTENT_TAGS.author, ...showing.tags],
      paths: [ARTICLES_PREFIX, ARTICLES_FEED_PATH],
      purgePrefixes: [`${ARTICLES_PREFIX}/`],
    }
  },
  // The map proxy.ts reads; the CDN has every redirect's path (an old one may have been a page).
  redirect: async () => ({
    tags: [CONTENT_TAGS.redirect],
    paths: [ROUTING, ...redirectSourcePaths(await getRedirectPaths().catch(() => []))],
    purgePrefixes: [],
  }),
}

/**
 * What publishing this document changes. Types without an entry (site settings, home page,
 * claims, the calculator, the announcement) are shown on many or all pages: their tag, the home
 * page regenerated at once, and the whole site purged by prefix (one request).
 */
export async function publishPlan(change: PublishedChange): Promise<PublishPlan | undefined> {
  if (!Object.hasOwn(CONTENT_TAGS, change.type)) return undefined
  const type = change.type as ContentType
  const plan = PUBLISHES[type]
  if (plan) {
    const { tags, paths, purgePrefixes } = await plan(change)
    return { tags: [...new Set(tags)], paths: [...new Set(paths)], purgePrefixes }
  }
  return { tags: [CONTENT_TAGS[type]], paths: [EVERY_PAGE], purgePrefixes: [EVERY_PAGE] }
}

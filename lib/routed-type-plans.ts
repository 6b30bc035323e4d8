import 'server-only'

import type { MetadataRoute } from 'next'

import {
  getArticlePublishFacts,
  getArticlesShowing,
  getArticleSlugs,
  getCategorySlugs,
  getRedirectPaths,
  getRoutedSlugs,
  liveOnly,
  type RoutedSlugRow,
} from '@/lib/content'
import {
  ANY_RELATED_TAG,
  CONTENT_TAGS,
  documentTag,
  everyDocumentTag,
  relatedTag,
  tagForType,
  type ContentType,
} from '@/lib/content/tags'
import type { VisibilityWindow } from '@/lib/content/visibility'
import { redirectSourcePaths } from '@/lib/redirect-map'
import { ROUTING_TABLE_PATH } from '@/lib/security/internal-request'
import {
  ARTICLES_FEED_PATH,
  ARTICLES_PER_PAGE,
  ARTICLES_PREFIX,
  SLUG_PATTERN,
  listingPageCount,
} from '@/sanity/lib/paths'
import {
  ROUTED_TYPE_LIST,
  routedPath,
  routedTypeOf,
  type RoutedTypeDefinition,
  type RoutedTypeName,
} from '@/sanity/lib/routed-type-rules'

export { routedPath }

/**
 * The site's side of the routed types (docs/routed-types.md), derived from their definitions in
 * sanity/routed-type-definitions.ts: how the slugs are listed, what a publish changes, the sitemap entry and
 * the prerender. A type gets the defaults (its definition's queries through lib/content, and
 * documentPublish) unless SITE_PARTS gives it more. The sitemap, the known paths
 * (lib/known-paths.ts, read by proxy.ts), the routing table's window redirects (app/api/redirects),
 * generateStaticParams, the webhook (app/api/revalidate) and the CDN purge all loop over ROUTED.
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

/**
 * The webhook's filter: every type but those the site never shows (review links, assets), so a
 * new routed type needs no change to the webhook's settings.
 */
export const WEBHOOK_FILTER = '!(_type in ["reviewLink"]) && !string::startsWith(_type, "sanity.")'

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
  documentType?: string
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
  /** What a publish of one of its documents changes. */
  publish: (change: PublishedChange) => Promise<PublishPlan>
}

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

/** The listing's pages from the articles (newest first): a page changes when its newest does. */
const listingEntries = (articles: readonly RoutedEntry[]) =>
  Array.from({ length: listingPageCount(articles.length) }, (_, index) => ({
    slug: String(index + 1),
    lastModified: articles[index * ARTICLES_PER_PAGE]?.lastModified,
  }))

/** Its definition's slug list as entries (the default list). */
function defaultEntries(routed: RoutedTypeDefinition, rows: readonly RoutedSlugRow[]) {
  return slugged(rows).map((row) => ({
    ...(routed.windowed ? windowed(row) : { slug: row.slug, noindex: Boolean(row.noindex) }),
    lastModified: row._updatedAt,
  }))
}

/** The entries inside their window now; the answer being rendered expires at the next boundary. */
async function liveEntries(entries: readonly RoutedEntry[]) {
  const live = await liveOnly(entries.map((entry) => ({ ...entry.window, entry })))
  return live.map(({ entry }) => entry)
}

type SitePart = Partial<Pick<RoutedType, 'list' | 'listLive' | 'derive' | 'publish'>>

/**
 * The routed types whose site side is more than the default: the listing's pages come from the
 * articles; articles (related lists, publish facts) and categories have their own queries and plans.
 */
const SITE_PARTS: { [N in RoutedTypeName]?: SitePart } = {
  articleListing: {
    list: async () => listingEntries(await ROUTED.article.list()),
    listLive: async () => listingEntries(await ROUTED.article.listLive()),
    derive: { from: 'article', entries: listingEntries },
  },
  category: {
    list: async () =>
      slugged(await getCategorySlugs()).map((category) => ({
        slug: category.slug,
        lastModified: category.latest ?? category._updatedAt,
      })),
    publish: categoryPublish,
  },
  article: {
    list: async () => articleEntries(await getArticleSlugs()),
    publish: articlePublish,
  },
}

function siteSide(routed: RoutedTypeDefinition & { name: RoutedTypeName }): RoutedType {
  const part: SitePart = SITE_PARTS[routed.name] ?? {}
  const rows = () => getRoutedSlugs(routed.name)
  const list = part.list ?? (async () => defaultEntries(routed, await rows()))
  const { priority } = routed.sitemap
  return {
    documentType: routed.documentType,
    list,
    listLive: part.listLive ?? (routed.windowed ? async () => liveEntries(await list()) : list),
    derive: part.derive,
    extraSlugs: routed.extraSlugs,
    windowed: Boolean(routed.windowed),
    sitemap: {
      changeFrequency: routed.sitemap.changeFrequency,
      priority: typeof priority === 'number' ? () => priority : priority,
    },
    prerender: routed.prerender ?? Infinity,
    publish:
      part.publish ??
      (routed.documentType
        ? documentPublish(routed.name, routed.documentType)
        : async () => ({ tags: [], paths: [], purgePrefixes: [] })),
  }
}

export const ROUTED = Object.fromEntries(
  ROUTED_TYPE_LIST.map((routed) => [routed.name, siteSide(routed)]),
) as Record<RoutedTypeName, RoutedType>

export const ROUTED_TYPE_NAMES = ROUTED_TYPE_LIST.map((routed) => routed.name)

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
const SITEMAP = '/sitemap.xml'

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
    SITEMAP,
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

/**
 * The default publish plan of a routed type: its document's own tag (and its old slug's, for a
 * rename) and its type's tag (its lists: slug lists, the routing table, the sitemap); regenerated
 * at once the routing table first (the slugs that exist, which proxy.ts gates on), then its page
 * (and old address), then the sitemap; the CDN drops the same pages.
 */
function documentPublish(name: RoutedTypeName, documentType: string) {
  return async (change: PublishedChange): Promise<PublishPlan> => {
    const own = documentPaths(name, change)
    return {
      tags: [tagForType(documentType)!, ...own.tags],
      paths: [ROUTING, ...own.paths, SITEMAP],
      purgePrefixes: [],
    }
  }
}

// A category's name and address show on its articles' pages, the cards of them (lists, related
// lists) and its own page.
async function categoryPublish(change: PublishedChange): Promise<PublishPlan> {
  const showing = await articlesShowing(change, 'category')
  return {
    tags: [CONTENT_TAGS.category, ...showing.tags],
    paths: [
      ROUTING,
      ...documentPaths('category', change).paths,
      ARTICLES_PREFIX,
      ARTICLES_FEED_PATH,
      SITEMAP,
    ],
    purgePrefixes: [`${ARTICLES_PREFIX}/`, ARTICLES_PREFIX],
  }
}

/** Everything under the site: the types shown on every page (footer, figures, the bar). */
const EVERY_PAGE = '/'

/** What a publish of a type that is not routed changes, when more than every page. */
const PUBLISHES: Partial<Record<ContentType, (change: PublishedChange) => Promise<PublishPlan>>> = {
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
 * What publishing this document changes: a routed type's plan (ROUTED), or the entry in PUBLISHES,
 * or, for the types shown on many or all pages (site settings, home page, claims, the calculator,
 * the announcement), their tag, the home page regenerated at once, and the whole site purged by
 * prefix (one request). Undefined for a type the site does not show.
 */
export async function publishPlan(change: PublishedChange): Promise<PublishPlan | undefined> {
  const tag = tagForType(change.type)
  if (!tag) return undefined
  const routed = routedTypeOf(change.type)
  const plan = routed
    ? ROUTED[routed.name].publish
    : (PUBLISHES[change.type as ContentType] ??
      (async () => ({ tags: [tag], paths: [EVERY_PAGE], purgePrefixes: [EVERY_PAGE] })))
  const { tags, paths, purgePrefixes } = await plan(change)
  return { tags: [...new Set(tags)], paths: [...new Set(paths)], purgePrefixes }
}

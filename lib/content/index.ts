import 'server-only'

import { draftMode } from 'next/headers'
import type { QueryParams } from 'next-sanity'

import {
  ANNOUNCEMENT_QUERY,
  ARTICLE_FEED_QUERY,
  ARTICLE_LIST_PAGE_QUERY,
  ARTICLE_PUBLISH_QUERY,
  ARTICLE_QUERY,
  ARTICLE_SLUGS_QUERY,
  ARTICLES_SHOWING_QUERY,
  CATEGORY_QUERY,
  CATEGORY_SLUGS_QUERY,
  EXPERIMENTS_QUERY,
  LANDING_PAGE_QUERY,
  MATERIAL_FILE_QUERY,
  MATERIAL_LIST_QUERY,
  REDIRECT_PATHS_QUERY,
  REDIRECTS_QUERY,
  RELATED_ARTICLES_QUERY,
  REVIEW_LINK_QUERY,
  ROI_CALCULATOR_QUERY,
  SITE_SETTINGS_QUERY,
} from '@/sanity/lib/queries'
import type {
  ANNOUNCEMENT_QUERY_RESULT,
  ARTICLE_FEED_QUERY_RESULT,
  ARTICLE_LIST_PAGE_QUERY_RESULT,
  ARTICLE_PUBLISH_QUERY_RESULT,
  ARTICLE_QUERY_RESULT,
  ARTICLE_SLUGS_QUERY_RESULT,
  ARTICLES_SHOWING_QUERY_RESULT,
  CAMPAIGN_PAGE_QUERY_RESULT,
  CATEGORY_QUERY_RESULT,
  CATEGORY_SLUGS_QUERY_RESULT,
  EXPERIMENTS_QUERY_RESULT,
  LANDING_PAGE_QUERY_RESULT,
  LEGAL_PAGE_QUERY_RESULT,
  MATERIAL_FILE_QUERY_RESULT,
  MATERIAL_LIST_QUERY_RESULT,
  MATERIAL_QUERY_RESULT,
  REDIRECT_PATHS_QUERY_RESULT,
  REDIRECTS_QUERY_RESULT,
  RELATED_ARTICLES_QUERY_RESULT,
  REVIEW_LINK_QUERY_RESULT,
  ROI_CALCULATOR_QUERY_RESULT,
  SITE_SETTINGS_QUERY_RESULT,
} from '@/sanity/types'
import { serverEnv } from '@/lib/env'
import { isSanityConfigured } from '@/sanity/env'
import { ARTICLES_PER_PAGE, SLUG_PATTERN, listingPageCount } from '@/sanity/lib/paths'
import { ROUTED_TYPE_LIST, routedType, type RoutedTypeName } from '@/sanity/lib/routed-type-rules'
import { MATERIAL_QUERY } from '@/sanity/routed-type-definitions'

import { hashReviewToken, isReviewLinkUsable, isReviewTokenShape } from '@/lib/review-token'

import { queryDataset } from './bundled'
import {
  ANY_RELATED_TAG,
  CONTENT_TAGS,
  documentTag,
  everyDocumentTag,
  relatedTag,
  tagForType,
} from './tags'
import { latestArticlesWindows, liveItems } from '@/lib/articles/windows'

import { isVisible, type VisibilityWindow } from './visibility'
import { CONTROL } from '@/lib/experiments/ids'
import { experimentDefinitions, runningExperiment } from '@/lib/experiments/definition'
import { expireAtNextBoundary } from './visibility-cache'

/** How many related articles an article shows, and how many the feed lists. */
export const RELATED_COUNT = 3
const FEED_COUNT = 20

/**
 * The items inside their visibility window now, after making the answer being rendered expire at
 * the next start or end among all of them (visible or not), so an article comes and goes from
 * every list by itself, with no webhook (lib/content/visibility-cache.ts, docs/campaigns.md).
 */
export async function liveOnly<T extends VisibilityWindow>(items: readonly T[]): Promise<T[]> {
  const now = Date.now()
  await expireAtNextBoundary(items, now)
  return liveItems(items, now)
}

// The one way the site reads content: the Sanity Content Lake when a project is configured, the
// bundled NDJSON dataset otherwise. A configured project that cannot be reached throws, on
// purpose: a build fails loudly, and an ISR regeneration keeps serving the last good page,
// instead of either silently publishing the bundled default.
async function fetchContent<T>(
  query: string,
  params: QueryParams,
  tags: string[],
  { publishedOnly = false, fresh = false } = {},
): Promise<T> {
  if (isSanityConfigured) {
    const [{ fetchFromSanity }, draft] = await Promise.all([
      import('./sanity-client'),
      publishedOnly ? false : isDraftModeEnabled(),
    ])
    return fetchFromSanity<T>(query, params, tags, { draft, fresh })
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

/** The savings calculator's texts and assumptions (home page's ROI block, /calculadora, leads). */
export function getRoiCalculator() {
  return fetchContent<ROI_CALCULATOR_QUERY_RESULT>(ROI_CALCULATOR_QUERY, {}, [
    CONTENT_TAGS.roiCalculator,
  ])
}

export function getLegalPage(slug: string) {
  return getRoutedDocument<NonNullable<LEGAL_PAGE_QUERY_RESULT>>('legalPage', slug)
}

/**
 * A campaign page (published, or its draft in draft mode), with its blocks; null when there is
 * none at this slug or it is outside its visibility window (the page answers 404; proxy.ts answers
 * the editor's redirect before that, if any). The page expires at the next start or end of its
 * window or of an article its latest-articles blocks may show. `anyWindow`: the draft preview.
 */
export async function getCampaignPage(slug: string, { anyWindow = false } = {}) {
  const page = await getRoutedDocument<NonNullable<CAMPAIGN_PAGE_QUERY_RESULT>>(
    'campaignPage',
    slug,
    { anyWindow },
  )
  if (!page) return null
  const now = Date.now()
  const featured = (page.blocks ?? []).flatMap((block) =>
    block._type === 'materialFeatureBlock' && block.material ? [block.material] : [],
  )
  await expireAtNextBoundary([...latestArticlesWindows(page.blocks ?? []), ...featured], now)
  // Its latest-articles blocks show only the articles inside their window, and a featured
  // material only inside its own (its page answers 404 outside it).
  const blocks = (page.blocks ?? []).map((block) =>
    block._type === 'latestArticlesBlock' && block.articles
      ? { ...block, articles: liveItems(block.articles, now) }
      : block._type === 'materialFeatureBlock' && block.material && !isVisible(block.material, now)
        ? { ...block, material: null }
        : block,
  )
  return { ...page, blocks }
}

/**
 * The announcement bar's document, published only (the bar never shows a draft), when it has a
 * text and is inside its window; null otherwise. The page showing it expires at the window's next
 * start or end, so the bar comes and goes by itself.
 */
export async function getAnnouncement() {
  const announcement = await fetchContent<ANNOUNCEMENT_QUERY_RESULT>(
    ANNOUNCEMENT_QUERY,
    {},
    [CONTENT_TAGS.announcement],
    { publishedOnly: true },
  )
  await expireAtNextBoundary([announcement])
  return announcement?.text && isVisible(announcement) ? announcement : null
}

/**
 * Every published experiment, running or not (lib/experiments/definition.ts: runningExperiment,
 * isRunningVariant), with its page's path; never a draft. Cached under the experiment tag and the
 * pages' (a renamed campaign page moves its experiment); whoever serves by it also expires at the
 * next start or end among them (expireAtNextBoundary), so an experiment starts and ends by itself.
 */
export async function getExperiments({ fresh = false } = {}) {
  const rows = await fetchContent<EXPERIMENTS_QUERY_RESULT>(
    EXPERIMENTS_QUERY,
    {},
    [CONTENT_TAGS.experiment, CONTENT_TAGS.landingPage, CONTENT_TAGS.campaignPage],
    { publishedOnly: true, fresh },
  )
  return experimentDefinitions(rows)
}

/**
 * The experiment running on the page at `pagePath` ('/' or '/p/<slug>') now, or undefined; the
 * page being rendered expires at the next start or end among the experiments, so its variant meta
 * comes and goes by itself.
 */
export async function getPageExperiment(pagePath: string) {
  const definitions = await getExperiments()
  const now = Date.now()
  await expireAtNextBoundary(definitions, now)
  return runningExperiment(definitions, pagePath, now)
}

/**
 * The experiment a variant page (app/variante) renders: the one running on `pagePath` with this
 * key, when `variant` is one of its variants other than the default; null otherwise (404).
 */
export async function getServedVariant(pagePath: string, experiment: string, variant: string) {
  const running = await getPageExperiment(pagePath)
  if (!running || running.key !== experiment || variant === CONTROL) return null
  return running.variants.some((entry) => entry.key === variant) ? running : null
}

/** Every published redirect, cached under the redirect tag (the webhook revalidates it). */
export function getRedirects() {
  return fetchContent<REDIRECTS_QUERY_RESULT>(REDIRECTS_QUERY, {}, [CONTENT_TAGS.redirect], {
    publishedOnly: true,
  })
}

/** Every published redirect's starting path, read fresh (for the webhook). */
export function getRedirectPaths() {
  return fetchContent<REDIRECT_PATHS_QUERY_RESULT>(
    REDIRECT_PATHS_QUERY,
    {},
    [CONTENT_TAGS.redirect],
    { publishedOnly: true, fresh: true },
  )
}

let warnedNoReadToken = false

/**
 * What a review link shows (its draft, read-only): the routed type of the document it names, read
 * by that type's `queries.review` (sanity/routed-type-definitions.ts), or null for a token that is
 * malformed, unknown (altered), revoked or expired. Never cached: read with the read token on
 * every request. Each review query names the one document by id and type, so the link reaches no
 * other draft. Without a Sanity project there are no drafts, hence no review links.
 */
export async function getReviewPage(token: string) {
  if (!isSanityConfigured || !isReviewTokenShape(token)) return null
  // Without the read token no review link can be checked: each answers 404, as documented
  // (docs/campaigns.md), with one log line per process rather than an error page.
  if (!serverEnv.sanityApiReadToken) {
    if (!warnedNoReadToken) {
      warnedNoReadToken = true
      console.error('[review] SANITY_API_READ_TOKEN is not set: review links answer 404.')
    }
    return null
  }
  const { fetchPrivate } = await import('./sanity-client')
  const link = await fetchPrivate<REVIEW_LINK_QUERY_RESULT>(REVIEW_LINK_QUERY, {
    hash: await hashReviewToken(token),
  })
  if (!link?.pageId || !isReviewLinkUsable(link)) return null
  const id = link.pageId.replace(/^drafts\./, '')
  const types = ROUTED_TYPE_LIST.filter((routed) => routed.studio?.reviewLinks)
  const docs = await Promise.all(
    types.map((routed) => fetchPrivate<object | null>(routed.queries!.review!, { id })),
  )
  const found = docs.findIndex(Boolean)
  if (found < 0) return null
  return { name: types[found]!.name, doc: docs[found]!, expiresAt: link.expiresAt }
}

/**
 * An article (published, or its draft in draft mode) with its author, categories, body and up to
 * three related articles inside their window; null when there is none at this slug or it is
 * outside its visibility window (the page answers 404; proxy.ts answers the editor's redirect
 * before that, if any). The page expires at the next boundary of the article or of a related one.
 * Two queries, each cached under what it read: the article under its own tag (documentTag), the
 * related list under its categories' (relatedTag), so publishing another article leaves this one
 * cached unless it enters or leaves this one's related list. `anyWindow`: the draft preview, which
 * shows the article whatever its window.
 */
export async function getArticle(slug: string, { anyWindow = false } = {}) {
  if (!SLUG_PATTERN.test(slug)) return null
  const article = await fetchContent<ARTICLE_QUERY_RESULT>(ARTICLE_QUERY, { slug }, [
    // Also what it shows of its categories and author: their publish revalidates the tags of
    // the articles that show them (lib/routed-type-plans.ts), not every article's.
    documentTag('article', slug),
    everyDocumentTag('article'),
    CONTENT_TAGS.claim,
    // The material offered at its end.
    CONTENT_TAGS.material,
  ])
  if (!article) return null
  const categories = (article.categories ?? []).flatMap((category) =>
    category?._id ? [category._id] : [],
  )
  const candidates =
    categories.length === 0
      ? []
      : await fetchContent<RELATED_ARTICLES_QUERY_RESULT>(
          RELATED_ARTICLES_QUERY,
          { id: article._id, categories },
          [ANY_RELATED_TAG, ...categories.map(relatedTag)],
        )
  const [live, related, material] = await Promise.all([
    liveOnly([article]),
    liveOnly(candidates),
    liveOnly(article.material ? [article.material] : []),
  ])
  // The editor's preview (anyWindow) shows a scheduled or ended article, as for campaign pages.
  if (live.length === 0 && !anyWindow) return null
  // The material at its end shows only inside its own window (its page answers 404 outside it).
  return { ...article, material: material[0] ?? null, related: related.slice(0, RELATED_COUNT) }
}

/**
 * Page `page` (1-based) of the listing, newest first, ARTICLES_PER_PAGE a page, with the number
 * of pages and the categories; `articles` is empty past the last page. Only articles inside their
 * window count, judged now in GROQ, which returns this page's slice and the count only; the page
 * expires at the next start or end of any article's window.
 */
export async function getArticleListPage(page: number) {
  const now = Date.now()
  const start = (page - 1) * ARTICLES_PER_PAGE
  const result = await fetchContent<ARTICLE_LIST_PAGE_QUERY_RESULT>(
    ARTICLE_LIST_PAGE_QUERY,
    { now: new Date(now).toISOString(), start, end: start + ARTICLES_PER_PAGE },
    [CONTENT_TAGS.article, CONTENT_TAGS.category],
    { publishedOnly: true },
  )
  await expireAtNextBoundary([{ visibleFrom: result.nextStart, visibleUntil: result.nextEnd }], now)
  return {
    categories: result.categories,
    articles: result.articles,
    total: result.total,
    pageCount: listingPageCount(result.total),
  }
}

/** A category and its articles inside their window, newest first. */
export async function getCategory(slug: string) {
  if (!SLUG_PATTERN.test(slug)) return null
  const category = await fetchContent<CATEGORY_QUERY_RESULT>(
    CATEGORY_QUERY,
    { slug },
    [CONTENT_TAGS.article, CONTENT_TAGS.category],
    { publishedOnly: true },
  )
  return category ? { ...category, articles: await liveOnly(category.articles) } : null
}

/** Every published article's slug and dates, newest first (prerender, sitemap). Never draft-aware. */
export function getArticleSlugs({ fresh = false } = {}) {
  return fetchContent<ARTICLE_SLUGS_QUERY_RESULT>(ARTICLE_SLUGS_QUERY, {}, [CONTENT_TAGS.article], {
    publishedOnly: true,
    fresh,
  })
}

/** Every category's slug and its newest article's date (prerender, sitemap). Never draft-aware. */
export function getCategorySlugs({ fresh = false } = {}) {
  return fetchContent<CATEGORY_SLUGS_QUERY_RESULT>(
    CATEGORY_SLUGS_QUERY,
    {},
    [CONTENT_TAGS.article, CONTENT_TAGS.category],
    { publishedOnly: true, fresh },
  )
}

/** The latest 20 articles inside their window, for the feed (which expires at the next boundary). */
export async function getArticleFeed() {
  const articles = await fetchContent<ARTICLE_FEED_QUERY_RESULT>(
    ARTICLE_FEED_QUERY,
    {},
    [CONTENT_TAGS.article, CONTENT_TAGS.category, CONTENT_TAGS.author],
    { publishedOnly: true },
  )
  return (await liveOnly(articles)).slice(0, FEED_COUNT)
}

/**
 * What an article publish changes, read fresh by the webhook (lib/routed-type-plans.ts): the article
 * as published now, its categories' and `categoriesBefore`'s newest-list cut-offs, and the campaign
 * pages that show the latest articles.
 */
export function getArticlePublishFacts(id: string, categoriesBefore: string[]) {
  return fetchContent<ARTICLE_PUBLISH_QUERY_RESULT>(
    ARTICLE_PUBLISH_QUERY,
    { id, categories: categoriesBefore },
    [],
    { publishedOnly: true, fresh: true },
  )
}

/**
 * The published articles that show a category or an author, with their categories: whose pages
 * and related lists a publish of it changes. Fresh, as getArticlePublishFacts.
 */
export function getArticlesShowing(id: string) {
  return fetchContent<ARTICLES_SHOWING_QUERY_RESULT>(ARTICLES_SHOWING_QUERY, { id }, [], {
    publishedOnly: true,
    fresh: true,
  })
}

/**
 * A routed type's document through its definition's query (the default fetcher of a type without
 * one of its own, sanity/routed-type-definitions.ts): published, or its draft in draft mode; cached under its
 * own tag and the tags of what its page shows, so its publish refreshes it and no other page;
 * null when there is none at this slug or (a windowed type) it is outside its window, the cached
 * answer then expiring at the window's next start or end. `anyWindow`: the draft preview.
 */
export async function getRoutedDocument<T extends object>(
  name: RoutedTypeName,
  slug: string,
  { anyWindow = false } = {},
): Promise<T | null> {
  const { documentType, queries, shows = [], windowed } = routedType(name)
  if (!documentType || !queries?.document || !SLUG_PATTERN.test(slug)) return null
  const doc = await fetchContent<T | null>(queries.document, { slug }, [
    documentTag(documentType, slug),
    ...shows.flatMap((type) => tagForType(type) ?? []),
  ])
  if (!doc || !windowed) return doc
  const live = await liveOnly([doc as T & VisibilityWindow])
  return live.length > 0 || anyWindow ? doc : null
}

/** A row of a routed type's slug list (its definition's `slugs` query). */
export type RoutedSlugRow = {
  slug?: string | null
  _updatedAt?: string | null
  noindex?: boolean | null
  visibleFrom?: string | null
  visibleUntil?: string | null
  hiddenRedirect?: string | null
}

/**
 * Every published document of a routed type with the default fetchers, cached under the type's tag
 * (its lists'). Never draft-aware; `fresh` skips the cache: the webhook needs the list as it is now.
 */
export function getRoutedSlugs(name: RoutedTypeName, { fresh = false } = {}) {
  const { documentType, queries } = routedType(name)
  if (!documentType || !queries?.slugs)
    throw new Error(`routed type ${name} has no queries: give it some, or fetchers of its own`)
  return fetchContent<RoutedSlugRow[]>(queries.slugs, {}, [tagForType(documentType)!], {
    publishedOnly: true,
    fresh,
  })
}

/**
 * A material's page data (MATERIAL_QUERY, the routed type's default fetcher): published, or its
 * draft in draft mode; null outside its window. Never the file's address.
 */
export function getMaterial(slug: string, { anyWindow = false } = {}) {
  return getRoutedDocument<NonNullable<MATERIAL_QUERY_RESULT>>('material', slug, { anyWindow })
}

/**
 * A material as published now and inside its window, read fresh (never the cache): what a form
 * post is checked against, so a material unpublished or ended since the page was rendered is
 * refused with a message, not served from a stale copy. Null when it is not live.
 */
export async function getLiveMaterialFresh(slug: string) {
  if (!SLUG_PATTERN.test(slug)) return null
  const material = await fetchContent<MATERIAL_QUERY_RESULT>(MATERIAL_QUERY, { slug }, [], {
    publishedOnly: true,
    fresh: true,
  })
  return material && isVisible(material) ? material : null
}

/**
 * A live material's file, for its gated download only (app/materiais/[slug]/baixar): published,
 * inside its window, read fresh, so a link stops working when the material is unpublished.
 */
export async function getMaterialFile(slug: string) {
  if (!SLUG_PATTERN.test(slug)) return null
  const material = await fetchContent<MATERIAL_FILE_QUERY_RESULT>(
    MATERIAL_FILE_QUERY,
    { slug },
    [],
    { publishedOnly: true, fresh: true },
  )
  return material && isVisible(material) ? material : null
}

/** The list at /materiais: published materials inside their window, newest first. */
export async function getMaterialList() {
  const materials = await fetchContent<MATERIAL_LIST_QUERY_RESULT>(
    MATERIAL_LIST_QUERY,
    {},
    [CONTENT_TAGS.material],
    { publishedOnly: true },
  )
  return liveOnly(materials)
}

export type Material = NonNullable<MATERIAL_QUERY_RESULT>

export type SiteSettings = NonNullable<SITE_SETTINGS_QUERY_RESULT>
export type LandingPage = NonNullable<LANDING_PAGE_QUERY_RESULT>
export type LegalPage = NonNullable<LEGAL_PAGE_QUERY_RESULT>
export type CampaignPage = NonNullable<CAMPAIGN_PAGE_QUERY_RESULT>
export type Announcement = NonNullable<ANNOUNCEMENT_QUERY_RESULT>
/** An article as its page shows it: the article and its related articles (two queries). */
export type Article = NonNullable<ARTICLE_QUERY_RESULT> & {
  related: RELATED_ARTICLES_QUERY_RESULT
}
export type ArticleCard = ARTICLE_LIST_PAGE_QUERY_RESULT['articles'][number]
export type Category = NonNullable<CATEGORY_QUERY_RESULT>
export type RoiCalculatorContent = NonNullable<ROI_CALCULATOR_QUERY_RESULT>

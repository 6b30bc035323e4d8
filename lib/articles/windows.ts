import { isVisible, type VisibilityWindow } from '@/lib/content/visibility'
import { ARTICLES_PER_PAGE } from '@/sanity/lib/paths'

// Articles with a visibility window (docs/articles.md): every list keeps only the ones live at
// the time of the render. Pure functions of the items and the clock; lib/content also makes the
// cached answer expire at the next boundary (lib/content/visibility-cache.ts).

/** The items inside their window at `now`, in their order. */
export function liveItems<T extends VisibilityWindow>(items: readonly T[], now = Date.now()): T[] {
  return items.filter((item) => isVisible(item, now))
}

/**
 * Page `page` (1-based) of the listing from the live articles, newest first: ARTICLES_PER_PAGE a
 * page, the total and the number of pages (at least 1); `articles` is empty past the last page.
 */
export function listingPage<T>(live: readonly T[], page: number) {
  const start = (page - 1) * ARTICLES_PER_PAGE
  return {
    articles: live.slice(start, start + ARTICLES_PER_PAGE),
    total: live.length,
    pageCount: Math.max(1, Math.ceil(live.length / ARTICLES_PER_PAGE)),
  }
}

/** The windows of the articles a campaign page's latest-articles blocks may show. */
export function latestArticlesWindows(
  blocks: readonly ({ _type: string; articles?: readonly VisibilityWindow[] | null } | null)[] = [],
): VisibilityWindow[] {
  return blocks.flatMap((block) =>
    block?._type === 'latestArticlesBlock' ? [...(block.articles ?? [])] : [],
  )
}

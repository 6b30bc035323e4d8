import { isVisible, type VisibilityWindow } from '@/lib/content/visibility'

// Articles with a visibility window (docs/articles.md): every list keeps only the ones live at
// the time of the render. Pure functions of the items and the clock; lib/content also makes the
// cached answer expire at the next boundary (lib/content/visibility-cache.ts).

/** The items inside their window at `now`, in their order. */
export function liveItems<T extends VisibilityWindow>(items: readonly T[], now = Date.now()): T[] {
  return items.filter((item) => isVisible(item, now))
}

/** The windows of the articles a campaign page's latest-articles blocks may show. */
export function latestArticlesWindows(
  blocks: readonly ({ _type: string; articles?: readonly VisibilityWindow[] | null } | null)[] = [],
): VisibilityWindow[] {
  return blocks.flatMap((block) =>
    block?._type === 'latestArticlesBlock' ? [...(block.articles ?? [])] : [],
  )
}

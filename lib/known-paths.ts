import {
  getArticleSlugs,
  getCampaignPageSlugs,
  getCategorySlugs,
  getLegalPageSlugs,
} from '@/lib/content'
import { ARTICLES_PER_PAGE } from '@/sanity/lib/paths'

/**
 * Sections of the site whose pages are documents, by path prefix, with the function that lists
 * the slugs published there (cached under the type's tag, so the webhook refreshes the list the
 * way it refreshes the redirects). proxy.ts answers an address under one of these prefixes whose
 * slug is not in the list with the 404 page, before any page code runs: no Content Lake query, no
 * ISR cache entry (docs/security.md, "Unknown addresses").
 *
 * Another section joins with one line here, plus its prefix in proxy.ts's matcher, which Next
 * needs as a literal.
 */
export const KNOWN_SLUG_SECTIONS: Record<string, () => Promise<string[]>> = {
  '/p': async () =>
    (await getCampaignPageSlugs()).flatMap((page) => (page.slug ? [page.slug] : [])),
  // Articles, and the feed beside them (app/conteudos/feed.xml).
  '/conteudos': async () => [
    ...(await getArticleSlugs()).flatMap((article) => (article.slug ? [article.slug] : [])),
    'feed.xml',
  ],
  '/conteudos/categoria': async () =>
    (await getCategorySlugs()).flatMap((category) => (category.slug ? [category.slug] : [])),
  // The listing's pages: 1 (which redirects to /conteudos) to the last.
  '/conteudos/pagina': async () => {
    const pages = Math.max(1, Math.ceil((await getArticleSlugs()).length / ARTICLES_PER_PAGE))
    return Array.from({ length: pages }, (_, index) => String(index + 1))
  },
}

/** Every path that is a page made from a document (never the source of a redirect). */
export async function documentPagePaths(): Promise<Set<string>> {
  const [legal, known] = await Promise.all([getLegalPageSlugs(), knownSlugs()])
  return new Set([
    ...legal.flatMap((page) => (page.slug ? [`/${page.slug}`] : [])),
    ...Object.entries(known).flatMap(([prefix, slugs]) => slugs.map((slug) => `${prefix}/${slug}`)),
  ])
}

/** The published slugs of each section in KNOWN_SLUG_SECTIONS. */
export async function knownSlugs(): Promise<Record<string, string[]>> {
  const entries = await Promise.all(
    Object.entries(KNOWN_SLUG_SECTIONS).map(
      async ([prefix, list]) => [prefix, await list()] as const,
    ),
  )
  return Object.fromEntries(entries)
}

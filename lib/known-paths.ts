import { getCampaignPageSlugs, getLegalPageSlugs } from '@/lib/content'

/**
 * Sections of the site whose pages are documents, by path prefix, with the function that lists
 * the slugs published there (cached under the type's tag, so the webhook refreshes the list the
 * way it refreshes the redirects). proxy.ts answers an address under one of these prefixes whose
 * slug is not in the list with the 404 page, before any page code runs: no Content Lake query, no
 * ISR cache entry (docs/security.md, "Unknown addresses").
 *
 * Another section joins with one line here, e.g. articles:
 *   '/conteudos': async () => (await getArticleSlugs()).flatMap((a) => (a.slug ? [a.slug] : [])),
 * plus its prefix in proxy.ts's matcher, which Next needs as a literal.
 */
export const KNOWN_SLUG_SECTIONS: Record<string, () => Promise<string[]>> = {
  '/p': async () =>
    (await getCampaignPageSlugs()).flatMap((page) => (page.slug ? [page.slug] : [])),
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

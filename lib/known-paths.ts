import {
  ROUTED,
  ROUTED_TYPE_NAMES,
  routedLists,
  routedPath,
  type RoutedEntry,
} from '@/lib/routed-type-plans'
import { routedType, type RoutedTypeName } from '@/sanity/lib/routed-type-rules'

/**
 * The slugs that exist under each routed type's prefix (lib/routed-type-plans.ts), read from the lists
 * cached under each type's tag, so the webhook refreshes them the way it refreshes the redirects.
 * proxy.ts answers an address under one of these prefixes whose slug is not listed with the 404
 * page, before any page code runs: no Content Lake query, no ISR cache entry (docs/security.md,
 * "Unknown addresses"). Types at the root (legal pages) are served by a route that knows its
 * slugs itself (dynamicParams = false).
 */

/** Every routed type's published entries, each list read once. */
export function routedEntries(): Promise<Record<RoutedTypeName, RoutedEntry[]>> {
  return routedLists()
}

/** The published slugs under each gated prefix ('/p', '/conteudos', ...), the feed included. */
export function knownSlugsOf(
  entries: Record<RoutedTypeName, RoutedEntry[]>,
): Record<string, string[]> {
  const known: Record<string, string[]> = {}
  for (const name of ROUTED_TYPE_NAMES) {
    const { prefix } = routedType(name)
    if (!prefix) continue
    known[prefix] = [
      ...entries[name].map((entry) => entry.slug),
      ...(ROUTED[name].extraSlugs ?? []),
    ]
  }
  return known
}

/** Every path that is a page made from a document (never the source of a redirect). */
export function documentPathsOf(entries: Record<RoutedTypeName, RoutedEntry[]>): Set<string> {
  return new Set(
    ROUTED_TYPE_NAMES.flatMap((name) => [
      ...entries[name].map((entry) => routedPath(name, entry.slug)),
      ...(ROUTED[name].extraSlugs ?? []).map((slug) => `${routedType(name).prefix}/${slug}`),
    ]),
  )
}

/** Every path that is a page made from a document (never the source of a redirect). */
export async function documentPagePaths(): Promise<Set<string>> {
  return documentPathsOf(await routedEntries())
}

/** The published slugs of each gated prefix. */
export async function knownSlugs(): Promise<Record<string, string[]>> {
  return knownSlugsOf(await routedEntries())
}

import type { MetadataRoute } from 'next'

// What one routed type's definition may say (sanity/routed-type-definitions.ts holds them all),
// in a file of its own: the definitions and the rules derived from them (routed-type-rules.ts)
// both import it, and neither imports the other back.

type ChangeFrequency = NonNullable<MetadataRoute.Sitemap[number]['changeFrequency']>

export type RoutedTypeDefinition = {
  /** The Sanity document type its pages are made from; none for pages computed from a list. */
  documentType?: string
  /** Where its documents live ('' for the root); proxy.ts's matcher lists each top section. */
  prefix: string
  /** The path of one document; `<prefix>/<slug>` unless given. */
  path?: (slug: string) => string
  /** An old address under the prefix may be a redirect's source (and a renamed one leaves one). */
  redirectable?: boolean
  /** Why its prefix's first segment is reserved at the root (a type with a top section of its own). */
  section?: string
  /** Names its slugs cannot take; the root's RESERVED_SLUGS unless given. */
  reservedSlugs?: ReadonlyMap<string, string>
  /** Other types whose slugs may not equal its own (one address space: legal and campaign pages). */
  sharesSlugsWith?: readonly string[]
  /** Its documents have a visibility window (and a redirect outside it). */
  windowed?: boolean
  /** Names under the prefix the site serves besides its documents (the feed). */
  extraSlugs?: readonly string[]
  sitemap: { changeFrequency: ChangeFrequency; priority: number | ((index: number) => number) }
  /** generateStaticParams prerenders at most this many, newest first; all unless given. */
  prerender?: number
  /**
   * The default fetchers' queries (lib/content getRoutedDocument, getRoutedSlugs): one document by
   * $slug, and every published one's `slug` (plus `_updatedAt`, `noindex` and for a windowed type
   * the window and `hiddenRedirect`). Types with fetchers of their own leave them out. `review`:
   * its draft (or published) document by `$id`, which a review link shows (studio.reviewLinks).
   */
  queries?: { document?: string; slugs?: string; review?: string }
  /** Other document types its page shows: their tags go on its data (claims, the calculator). */
  shows?: readonly string[]
  /** In the Studio: its list's title and place, and the name used in validation messages. */
  studio?: {
    title: string
    /** "da página de campanha": `já é o endereço <of> "..."`. */
    of: string
    group: 'site' | 'campaigns' | 'articles'
    ordering?: { field: string; direction: 'asc' | 'desc' }
    /** Presentation frames it at /preview<path> (a route app/preview<prefix>/[slug]). */
    preview?: boolean
    /** A Desempenho tab with its page's figures. */
    performance?: boolean
    /** "Criar link de revisão": app/revisao renders queries.review in its ROUTED_VIEWS entry. */
    reviewLinks?: boolean
  }
}

// The site's address rules, shared by the Studio's validation (campaign pages, legal pages,
// redirects) and the routes that serve them, so what the Studio accepts is what the site serves.

/**
 * A path segment editors may choose: lowercase letters without accents, digits and hyphens, no
 * hyphen first, last or twice. As regex source for the patterns built on it (redirect sources)
 * and the SQL copy (supabase/migrations/20261210000000_lead_page.sql; tests/unit/concepts.test.ts
 * holds it to this).
 */
export const SLUG_SEGMENT = '[a-z0-9]+(-[a-z0-9]+)*'

export const SLUG_PATTERN = new RegExp(`^${SLUG_SEGMENT}$`)

/**
 * The same characters without the hyphen rules: proxy.ts's matcher must be a literal (Next reads
 * it at build time), so it routes this looser set and the pages judge the slug with SLUG_PATTERN
 * (tests/unit/routed-types.test.ts holds the literal to this).
 */
export const SLUG_MATCHER_SEGMENT = '[a-z0-9-]+'

export const SLUG_MAX_LENGTH = 60

/**
 * Campaign pages live under this prefix (/p/<slug>), not at the root beside the legal pages: a
 * route's client code ships with every page of that route, so serving both from one `[slug]` route
 * would load the demo form's JavaScript on the legal pages too (docs/content.md, "Campaign pages").
 */
export const CAMPAIGN_PREFIX = '/p'

export function campaignPath(slug: string): string {
  return `${CAMPAIGN_PREFIX}/${slug}`
}

/**
 * Articles: the listing at /conteudos (page n >= 2 at /conteudos/pagina/<n>), each article at
 * /conteudos/<slug>, each category at /conteudos/categoria/<slug>, the feed at
 * /conteudos/feed.xml (docs/articles.md).
 */
export const ARTICLES_PREFIX = '/conteudos'

export const ARTICLES_FEED_PATH = `${ARTICLES_PREFIX}/feed.xml`

/** Articles per listing page. */
export const ARTICLES_PER_PAGE = 12

export function articlePath(slug: string): string {
  return `${ARTICLES_PREFIX}/${slug}`
}

export const CATEGORY_PREFIX = `${ARTICLES_PREFIX}/categoria`

export function categoryPath(slug: string): string {
  return `${CATEGORY_PREFIX}/${slug}`
}

export const LISTING_PAGE_PREFIX = `${ARTICLES_PREFIX}/pagina`

/** The listing's page `page` (1-based): /conteudos, then /conteudos/pagina/2, ... */
export function listingPagePath(page: number): string {
  return page <= 1 ? ARTICLES_PREFIX : `${LISTING_PAGE_PREFIX}/${page}`
}

/** How many listing pages `count` articles fill (at least one, the empty listing). */
export function listingPageCount(count: number): number {
  return Math.max(1, Math.ceil(count / ARTICLES_PER_PAGE))
}

/** Legal pages live at the root: /privacidade. */
export function legalPagePath(slug: string): string {
  return `/${slug}`
}

/** Where a redirect may lead: a path of this site or an https:// address. */
export const REDIRECT_TO_PATTERN = /^(\/[^\s]*|https:\/\/[^\s]+)$/

// Sanity's default uniqueness query uses sanity::versionOf(), which the bundled dataset's GROQ
// engine (groq-js, also used by the validation test) does not know; `others` means the same:
// every document but this one's draft and published copies and release versions.
const others = /* groq */ `!(_id in [$draft, $published]) && !(_id in path("versions.**"))`

/**
 * Who else uses a routed type's slug ($types: its own type and those sharing its addresses), or
 * starts a redirect at its path.
 */
export const SLUG_CONFLICT_QUERY = /* groq */ `{
  "taken": *[_type in $types && slug.current == $slug && ${others}][0]{_type, title},
  "redirect": *[_type == "redirect" && from == $path && ${others}][0].to
}`

/** What a redirect from $from to $to would collide with or chain onto. */
export const REDIRECT_CONFLICT_QUERY = /* groq */ `{
  "sameFrom": *[_type == "redirect" && from == $from && ${others}][0].to,
  "leadsHere": *[_type == "redirect" && to == $from && ${others}][0].from,
  "leadsOn": *[_type == "redirect" && from == $to && ${others}][0].to,
  "page": *[_type in $pageTypes && slug.current == $pageSlug][0]{_type, title}
}`

/** The tag the validation queries carry (the dataset-validation test answers only these). */
export const VALIDATION_QUERY_TAG = 'validation.path-is-free'

/** Materials (e-books, checklists) behind a short form: the list at /materiais, each at /materiais/<slug>. */
export const MATERIALS_PREFIX = '/materiais'

export function materialPath(slug: string): string {
  return `${MATERIALS_PREFIX}/${slug}`
}

/** Where a material's signed download link points (app/materiais/[slug]/baixar). */
export function materialDownloadPath(slug: string): string {
  return `${materialPath(slug)}/baixar`
}

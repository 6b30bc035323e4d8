// The site's address rules, shared by the Studio's validation (campaign pages, legal pages,
// redirects) and the routes that serve them, so what the Studio accepts is what the site serves.

/** A path segment editors may choose: lowercase letters without accents, digits and hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/

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

/**
 * The routed document types: each one's address rules, pure so the Studio shares them. The
 * site's side of each (slug lists, cache tags, sitemap, what a publish changes) is keyed by the
 * same names in lib/routed-types.ts; "Adding a routed type" in docs/routed-types.md.
 * - `prefix`: where its documents live ('' for the root); proxy.ts's matcher lists each non-root
 *   one (tests/unit/routed-types.test.ts checks it).
 * - `redirectable`: an old address under the prefix may be a redirect's source.
 */
export const ROUTED_TYPES = {
  campaignPage: { prefix: CAMPAIGN_PREFIX, path: campaignPath, redirectable: true },
  article: {
    prefix: ARTICLES_PREFIX,
    path: articlePath,
    redirectable: true,
  },
  category: { prefix: CATEGORY_PREFIX, path: categoryPath, redirectable: false },
  articleListing: {
    prefix: LISTING_PAGE_PREFIX,
    path: (page: string) => listingPagePath(Number(page)),
    redirectable: false,
  },
  legalPage: { prefix: '', path: legalPagePath, redirectable: false },
} as const satisfies Record<
  string,
  {
    prefix: string
    path: (slug: string) => string
    redirectable: boolean
  }
>

export type RoutedTypeName = keyof typeof ROUTED_TYPES

/** The first segments of the prefixes an old address may redirect from: p, conteudos. */
export const REDIRECTABLE_SECTIONS: readonly string[] = Object.values(ROUTED_TYPES).flatMap(
  (routed) => (routed.redirectable ? [routed.prefix.slice(1)] : []),
)

/** Names under /conteudos/ the site routes itself, so no article can take them. */
export const ARTICLE_RESERVED_SLUGS: ReadonlyMap<string, string> = new Map([
  ['pagina', 'é onde ficam as páginas seguintes da lista de conteúdos (/conteudos/pagina/2)'],
  ['categoria', 'é o prefixo das páginas de categoria (/conteudos/categoria/...)'],
  ['feed', 'fica reservado para o feed de conteúdos (/conteudos/feed.xml)'],
])

/** Why this slug cannot be an article's address, in Portuguese, or undefined when it can. */
export function articleSlugProblem(slug: string | undefined | null): string | undefined {
  if (!slug) return undefined
  if (!SLUG_PATTERN.test(slug))
    return 'Use só letras minúsculas sem acento, números e hífens (sem espaços, barras ou hífen no início ou no fim).'
  if (slug.length > SLUG_MAX_LENGTH) return `No máximo ${SLUG_MAX_LENGTH} caracteres.`
  const reserved = ARTICLE_RESERVED_SLUGS.get(slug)
  if (reserved) return `"${slug}" não pode ser usado: ${reserved}.`
  return undefined
}

/**
 * Top-level names the app already routes (or Next serves), and why, so the Studio can tell an
 * editor what a slug would collide with. Legal pages and campaign pages share this list: a legal
 * page here would never be reachable, and a campaign page keeps the option of moving to the root.
 */
export const RESERVED_SLUGS: ReadonlyMap<string, string> = new Map([
  ['api', 'é onde ficam as rotas internas do site (webhook de publicação, modo rascunho)'],
  ['studio', 'é o endereço do Sanity Studio'],
  ['preview', 'é a pré-visualização do Studio'],
  ['p', 'é o prefixo das páginas de campanha (/p/...)'],
  ['conteudos', 'é a lista de artigos (/conteudos) e o prefixo de cada artigo'],
  ['opengraph-image', 'é a imagem de compartilhamento gerada pelo site'],
  ['revisao', 'é o endereço dos links de revisão de rascunhos (/revisao/...)'],
  ['calculadora', 'é a resposta da calculadora de economia (/calculadora)'],
])

/** Why this slug cannot be used, in Portuguese, or undefined when it can. */
export function slugProblem(slug: string | undefined | null): string | undefined {
  if (!slug) return undefined
  if (!SLUG_PATTERN.test(slug))
    return 'Use só letras minúsculas sem acento, números e hífens (sem espaços, barras ou hífen no início ou no fim).'
  if (slug.length > SLUG_MAX_LENGTH) return `No máximo ${SLUG_MAX_LENGTH} caracteres.`
  const reserved = RESERVED_SLUGS.get(slug)
  if (reserved) return `"${slug}" não pode ser usado: ${reserved}.`
  return undefined
}

/**
 * A path a redirect may start from: one segment at the root (/onibus, an old campaign link), an
 * old campaign page (/p/<old-slug>) or an old article (/conteudos/<old-slug>). Deeper paths are
 * not routed to the redirect lookup (proxy.ts).
 */
export const REDIRECT_FROM_PATTERN = new RegExp(
  `^\\/((${REDIRECTABLE_SECTIONS.join('|')})\\/)?[a-z0-9]+(-[a-z0-9]+)*$`,
)

/** The section a redirect's source is under ('p', 'conteudos') and the slug it names there. */
export function redirectSource(from: string): { section?: string; segment: string } {
  const [, first = '', second] = from.split('/')
  return REDIRECTABLE_SECTIONS.includes(first) && second !== undefined
    ? { section: first, segment: second }
    : { segment: first }
}

/** Where a redirect may lead: a path of this site or an https:// address. */
export const REDIRECT_TO_PATTERN = /^(\/[^\s]*|https:\/\/[^\s]+)$/

// Sanity's default uniqueness query uses sanity::versionOf(), which the bundled dataset's GROQ
// engine (groq-js, also used by the validation test) does not know; `others` means the same:
// every document but this one's draft and published copies and release versions.
const others = /* groq */ `!(_id in [$draft, $published]) && !(_id in path("versions.**"))`

/** Who else uses a legal page's or campaign page's slug, or starts a redirect at its path. */
export const SLUG_CONFLICT_QUERY = /* groq */ `{
  "legalPage": *[_type == "legalPage" && slug.current == $slug && ${others}][0].title,
  "campaignPage": *[_type == "campaignPage" && slug.current == $slug && ${others}][0].title,
  "redirect": *[_type == "redirect" && from == $path && ${others}][0].to
}`

/** Who else uses an article's slug, or starts a redirect at its path. */
export const ARTICLE_SLUG_CONFLICT_QUERY = /* groq */ `{
  "article": *[_type == "article" && slug.current == $slug && ${others}][0].title,
  "redirect": *[_type == "redirect" && from == $path && ${others}][0].to
}`

/** Which other category uses this slug. */
export const CATEGORY_SLUG_CONFLICT_QUERY = /* groq */ `{
  "category": *[_type == "category" && slug.current == $slug && ${others}][0].title
}`

/** What a redirect from $from to $to would collide with or chain onto. */
export const REDIRECT_CONFLICT_QUERY = /* groq */ `{
  "sameFrom": *[_type == "redirect" && from == $from && ${others}][0].to,
  "leadsHere": *[_type == "redirect" && to == $from && ${others}][0].from,
  "leadsOn": *[_type == "redirect" && from == $to && ${others}][0].to,
  "legalPage": *[_type == "legalPage" && slug.current == $legalSlug][0].title,
  "campaignPage": *[_type == "campaignPage" && slug.current == $campaignSlug][0].title,
  "article": *[_type == "article" && slug.current == $articleSlug][0].title
}`

/** The tag the validation queries carry (the dataset-validation test answers only these). */
export const VALIDATION_QUERY_TAG = 'validation.path-is-free'

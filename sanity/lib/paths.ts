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
 * Top-level names the app already routes (or Next serves), and why, so the Studio can tell an
 * editor what a slug would collide with. Legal pages and campaign pages share this list: a legal
 * page here would never be reachable, and a campaign page keeps the option of moving to the root.
 */
export const RESERVED_SLUGS: ReadonlyMap<string, string> = new Map([
  ['api', 'é onde ficam as rotas internas do site (webhook de publicação, modo rascunho)'],
  ['studio', 'é o endereço do Sanity Studio'],
  ['preview', 'é a pré-visualização do Studio'],
  ['p', 'é o prefixo das páginas de campanha (/p/...)'],
  ['opengraph-image', 'é a imagem de compartilhamento gerada pelo site'],
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
 * A path a redirect may start from: one segment at the root (/onibus, an old campaign link) or an
 * old campaign page (/p/<old-slug>). Deeper paths are not routed to the redirect lookup.
 */
export const REDIRECT_FROM_PATTERN = /^\/(p\/)?[a-z0-9]+(-[a-z0-9]+)*$/

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

/** What a redirect from $from to $to would collide with or chain onto. */
export const REDIRECT_CONFLICT_QUERY = /* groq */ `{
  "sameFrom": *[_type == "redirect" && from == $from && ${others}][0].to,
  "leadsHere": *[_type == "redirect" && to == $from && ${others}][0].from,
  "leadsOn": *[_type == "redirect" && from == $to && ${others}][0].to,
  "legalPage": *[_type == "legalPage" && slug.current == $legalSlug][0].title,
  "campaignPage": *[_type == "campaignPage" && slug.current == $campaignSlug][0].title
}`

/** The tag the validation queries carry (the dataset-validation test answers only these). */
export const VALIDATION_QUERY_TAG = 'validation.path-is-free'

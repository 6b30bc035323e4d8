import { ROUTED_TYPES } from '../routed-type-definitions'
import type { RoutedTypeDefinition } from './routed-type-definition'
import { SLUG_MAX_LENGTH, SLUG_PATTERN, SLUG_SEGMENT } from './paths'

// What everything that names a routed type loops over, derived from the definitions in
// sanity/routed-type-definitions.ts (docs/routed-types.md): paths, slug rules, reserved names, redirect
// sources. Pure, shared by the Studio's browser bundle and the site; the site's server side
// (fetchers, tags, publish plan) is lib/routed-type-plans.ts.

/** Top-level names the app routes (or Next serves) besides the routed types' sections. */
export const APP_ROUTES: ReadonlyMap<string, string> = new Map([
  ['api', 'é onde ficam as rotas internas do site (webhook de publicação, modo rascunho)'],
  ['studio', 'é o endereço do Sanity Studio'],
  ['preview', 'é a pré-visualização do Studio'],
  ['opengraph-image', 'é a imagem de compartilhamento gerada pelo site'],
  ['revisao', 'é o endereço dos links de revisão de rascunhos (/revisao/...)'],
  ['calculadora', 'é a resposta da calculadora de economia (/calculadora)'],
  ['variante', 'é onde ficam as versões das páginas em experimento (/variante/...)'],
])

export type RoutedTypeName = keyof typeof ROUTED_TYPES

export { ROUTED_TYPES }
export type { RoutedTypeDefinition }

/** The definitions, each with its name, read through the type every one of them satisfies. */
export const ROUTED_TYPE_LIST: ReadonlyArray<RoutedTypeDefinition & { name: RoutedTypeName }> = (
  Object.keys(ROUTED_TYPES) as RoutedTypeName[]
).map((name) => {
  const routed: RoutedTypeDefinition = ROUTED_TYPES[name]
  // Otherwise "Criar link de revisão" would make links that answer 404.
  if (routed.studio?.reviewLinks && !routed.queries?.review)
    throw new Error(`routed type ${name}: studio.reviewLinks needs queries.review`)
  return { name, ...routed }
})

/** The Sanity document types routed types are made from. */
export type RoutedDocumentType = Extract<
  (typeof ROUTED_TYPES)[RoutedTypeName],
  { documentType: string }
>['documentType']

export const ROUTED_DOCUMENT_TYPES = ROUTED_TYPE_LIST.flatMap((routed) =>
  routed.documentType ? [routed.documentType as RoutedDocumentType] : [],
)

/** The definition of a routed type. */
export function routedType(name: RoutedTypeName): RoutedTypeDefinition & { name: RoutedTypeName } {
  return ROUTED_TYPE_LIST.find((routed) => routed.name === name)!
}

/** The routed type whose pages are made from this document type, if any. */
export function routedTypeOf(documentType: string) {
  return ROUTED_TYPE_LIST.find((routed) => routed.documentType === documentType)
}

/** The path of the document `slug` of this routed type. */
export function routedPath(name: RoutedTypeName, slug: string): string {
  const { path, prefix } = routedType(name)
  return path ? path(slug) : `${prefix}/${slug}`
}

/** The public path of a document of this Sanity type, if it is a routed type's. */
export function documentPath(documentType: string, slug: string | undefined | null) {
  const routed = routedTypeOf(documentType)
  return routed && slug ? routedPath(routed.name, slug) : undefined
}

/**
 * Top-level names the app already routes (or Next serves), and why, so the Studio can tell an
 * editor what a slug would collide with: the app's routes and each routed type's section.
 */
export const RESERVED_SLUGS: ReadonlyMap<string, string> = new Map([
  ...APP_ROUTES,
  ...ROUTED_TYPE_LIST.flatMap((routed) =>
    routed.section ? [[routed.prefix.slice(1), routed.section] as const] : [],
  ),
])

/** Why this slug cannot be used (by default at the root), in Portuguese, or undefined when it can. */
export function slugProblem(
  slug: string | undefined | null,
  reserved: ReadonlyMap<string, string> = RESERVED_SLUGS,
): string | undefined {
  if (!slug) return undefined
  if (!SLUG_PATTERN.test(slug))
    return 'Use só letras minúsculas sem acento, números e hífens (sem espaços, barras ou hífen no início ou no fim).'
  if (slug.length > SLUG_MAX_LENGTH) return `No máximo ${SLUG_MAX_LENGTH} caracteres.`
  const why = reserved.get(slug)
  if (why) return `"${slug}" não pode ser usado: ${why}.`
  return undefined
}

/** Why this slug cannot be the address of a document of this routed type, or undefined. */
export function routedSlugProblem(name: RoutedTypeName, slug: string | undefined | null) {
  return slugProblem(slug, routedType(name).reservedSlugs ?? RESERVED_SLUGS)
}

/** The first segments of the prefixes an old address may redirect from: p, conteudos. */
export const REDIRECTABLE_SECTIONS: readonly string[] = ROUTED_TYPE_LIST.flatMap((routed) =>
  routed.redirectable ? [routed.prefix.slice(1)] : [],
)

/**
 * A path a redirect may start from: one segment at the root (/onibus, an old campaign link), or
 * an old address under a redirectable type's prefix (/p/<old-slug>, /conteudos/<old-slug>).
 * Deeper paths are not routed to the redirect lookup (proxy.ts).
 */
export const REDIRECT_FROM_PATTERN = new RegExp(
  `^\\/((${REDIRECTABLE_SECTIONS.join('|')})\\/)?${SLUG_SEGMENT}$`,
)

/**
 * The section a redirect's source is under ('p', 'conteudos'), the routed type there, and the
 * slug it names.
 */
export function redirectSource(from: string): {
  section?: string
  type?: RoutedTypeDefinition & { name: RoutedTypeName }
  segment: string
} {
  const [, first = '', second] = from.split('/')
  if (!REDIRECTABLE_SECTIONS.includes(first) || second === undefined) return { segment: first }
  const type = ROUTED_TYPE_LIST.find(
    (routed) => routed.redirectable && routed.prefix === `/${first}`,
  )
  return { section: first, type, segment: second }
}

/**
 * Why a redirect may not start at this path's last segment: a name the site routes at the root,
 * or under a redirectable type's prefix a name reserved there (the article section's pagina,
 * categoria, feed); undefined when it may.
 */
export function redirectSourceProblem(from: string): string | undefined {
  const { section, type, segment } = redirectSource(from)
  if (section === undefined) return slugProblem(segment)
  return type?.reservedSlugs ? slugProblem(segment, type.reservedSlugs) : undefined
}

/** The id of the redirect a renamed document of a redirectable type leaves: redirect-p-<old>. */
export function slugChangeRedirectId(name: RoutedTypeName, previous: string): string {
  return `redirect-${routedType(name).prefix.slice(1).replaceAll('/', '-')}-${previous}`
}

import { defineField, type SlugValue, type ValidationContext } from 'sanity'

import {
  REDIRECT_CONFLICT_QUERY,
  REDIRECT_TO_PATTERN,
  SLUG_CONFLICT_QUERY,
  SLUG_MAX_LENGTH,
  VALIDATION_QUERY_TAG,
} from '../lib/paths'
import {
  REDIRECT_FROM_PATTERN,
  ROUTED_TYPE_LIST,
  redirectSource,
  redirectSourceProblem,
  routedPath,
  routedSlugProblem,
  routedType,
  routedTypeOf,
  type RoutedTypeName,
} from '../lib/routed-type-rules'
import { landingPath } from '../../lib/site-path'

// Validation rules that look at other documents: a page's address must be free, and a redirect
// must neither collide with a page nor chain onto another redirect. Each answer says why.

function client(context: ValidationContext) {
  // Raw: drafts count too, so two editors cannot claim the same address in parallel drafts.
  return context.getClient({ apiVersion: '2025-02-19' }).withConfig({ perspective: 'raw' })
}

function ownIds(context: ValidationContext) {
  const published = (context.document?._id ?? '').replace(/^drafts\./, '')
  return { draft: `drafts.${published}`, published }
}

/** "da página legal" → "a página legal", and the pronoun for it ("dela"). */
const named = (of: string) => ({
  noun: of.slice(1),
  pronoun: of.startsWith('da') ? 'dela' : 'dele',
})

/**
 * True, or why this slug cannot be the address of this document of a routed type: a segment the
 * site routes there (its reserved slugs), one another document of its type (or of a type sharing
 * its addresses) has, or where a redirect starts.
 */
export async function routedSlugRule(
  name: RoutedTypeName,
  slug: string | undefined,
  context: ValidationContext,
): Promise<string | true> {
  if (!slug) return true
  const problem = routedSlugProblem(name, slug)
  if (problem) return problem
  const own = routedType(name)
  const path = routedPath(name, slug)
  const taken = await client(context).fetch<{
    taken: { _type: string; title: string | null } | null
    redirect: string | null
  }>(
    SLUG_CONFLICT_QUERY,
    { slug, path, types: [own.documentType, ...(own.sharesSlugsWith ?? [])], ...ownIds(context) },
    { tag: VALIDATION_QUERY_TAG },
  )
  if (taken.taken) {
    const other = routedTypeOf(taken.taken._type)
    const shared =
      other && other.name !== name
        ? `${own.studio?.title.toLowerCase()} e ${other.studio?.title.toLowerCase()} precisam de endereços diferentes.`
        : 'escolha outro.'
    return `"${slug}" já é o endereço ${other?.studio?.of ?? ''} "${taken.taken.title ?? ''}": ${shared}`
  }
  if (taken.redirect)
    return `${path} já redireciona para ${taken.redirect}. Apague esse redirecionamento (Redirecionamentos) antes de usar o endereço.`
  return true
}

/**
 * The slug field of a routed type: required, generated from the title, and free (routedSlugRule).
 * One definition, so every routed type keeps the same rules.
 */
export const routedSlugField = (
  name: RoutedTypeName,
  {
    description,
    group,
    maxLength = SLUG_MAX_LENGTH,
  }: { description: string; group?: string; maxLength?: number },
) =>
  defineField({
    name: 'slug',
    title: 'Endereço (slug)',
    description,
    ...(group ? { group } : {}),
    type: 'slug',
    // The rule checks (and explains) every collision; isUnique only feeds "Generate".
    options: { source: 'title', maxLength, isUnique: () => true },
    validation: (rule) =>
      rule
        .required()
        .custom((slug, context) =>
          routedSlugRule(name, (slug as SlugValue | undefined)?.current, context),
        )
        // A slug's custom message is a warning unless made an error explicitly.
        .error(),
  })

type Redirect = { from?: string; to?: string }

/** Why a destination starting with "/" is refused (lib/site-path.ts), in Portuguese. */
export const SITE_PATH_MESSAGE =
  'O destino precisa ser um caminho simples deste site, como /p/onibus-rodoviarios: sem "//", "\\", "/./", "/../" nem formas codificadas deles, que o navegador poderia ler como outro site.'

/** True, or why this redirect cannot be published. */
export async function redirectRule(
  redirect: Redirect | undefined,
  context: ValidationContext,
): Promise<string | true> {
  const from = redirect?.from
  const to = redirect?.to
  if (!from || !to) return true
  if (!REDIRECT_FROM_PATTERN.test(from))
    return 'A origem é um caminho como /onibus, /p/endereco-antigo ou /conteudos/artigo-antigo: uma barra, letras minúsculas sem acento, números e hífens.'
  const reserved = redirectSourceProblem(from)
  if (reserved)
    return `A origem ${from} não pode ser usada: ${reserved.replace(/^"[^"]+" não pode ser usado: /, '')}`
  if (!REDIRECT_TO_PATTERN.test(to))
    return 'O destino é um caminho do site (/p/onibus-rodoviarios) ou um endereço https://.'
  // The same judgement as the site's (lib/site-path.ts): the path the target resolves to.
  const landing = to.startsWith('/') ? landingPath(to) : undefined
  if (to.startsWith('/') && landing === undefined) return SITE_PATH_MESSAGE
  const target = landing ?? to.replace(/[?#].*$/, '').replace(/(.)\/+$/, '$1')
  if (target === from) return `O destino é a própria origem: ${from} levaria a si mesmo, sem fim.`
  // The page at that address, if one is live there: a root type's or the section's type's.
  const { type: section, segment } = redirectSource(from)
  const pageTypes = section ? [section] : ROUTED_TYPE_LIST.filter((routed) => routed.prefix === '')
  const found = await client(context).fetch<{
    sameFrom: string | null
    leadsHere: string | null
    leadsOn: string | null
    page: { _type: string; title: string | null } | null
  }>(
    REDIRECT_CONFLICT_QUERY,
    {
      from,
      to: target,
      pageTypes: pageTypes.map((routed) => routed.documentType),
      pageSlug: segment,
      ...ownIds(context),
    },
    { tag: VALIDATION_QUERY_TAG },
  )
  const page = found.page && routedTypeOf(found.page._type)
  if (found.page && page?.studio) {
    const { noun, pronoun } = named(page.studio.of)
    return `${from} é ${noun} "${found.page.title ?? ''}", que continua no ar: ${page.redirectable ? `mude o endereço ${pronoun} antes de redirecionar.` : 'o redirecionamento nunca seria usado.'}`
  }
  if (found.sameFrom) return `Já existe um redirecionamento de ${from} (para ${found.sameFrom}).`
  if (found.leadsOn)
    return `${target} já redireciona para ${found.leadsOn}: aponte direto para ${found.leadsOn}, sem encadear redirecionamentos${found.leadsOn === from ? ' (este formaria um ciclo)' : ''}.`
  if (found.leadsHere)
    return `${found.leadsHere} já redireciona para ${from}: mude aquele redirecionamento para ${target}, em vez de encadear dois.`
  return true
}

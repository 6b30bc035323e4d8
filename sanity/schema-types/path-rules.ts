import { defineField, type SlugValue, type ValidationContext } from 'sanity'

import {
  ARTICLE_SLUG_CONFLICT_QUERY,
  CATEGORY_SLUG_CONFLICT_QUERY,
  REDIRECT_CONFLICT_QUERY,
  REDIRECT_FROM_PATTERN,
  redirectSource,
  REDIRECT_TO_PATTERN,
  SLUG_CONFLICT_QUERY,
  VALIDATION_QUERY_TAG,
  articlePath,
  articleSlugProblem,
  campaignPath,
  SLUG_MAX_LENGTH,
  slugProblem,
} from '../lib/paths'
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

/** True, or why this slug cannot be the address of this legal page or campaign page. */
export async function slugRule(
  type: 'legalPage' | 'campaignPage',
  slug: string | undefined,
  context: ValidationContext,
): Promise<string | true> {
  if (!slug) return true
  const problem = slugProblem(slug)
  if (problem) return problem
  const path = type === 'legalPage' ? `/${slug}` : campaignPath(slug)
  const taken = await client(context).fetch<{
    legalPage: string | null
    campaignPage: string | null
    redirect: string | null
  }>(SLUG_CONFLICT_QUERY, { slug, path, ...ownIds(context) }, { tag: VALIDATION_QUERY_TAG })
  if (taken.legalPage)
    return `"${slug}" já é o endereço da página legal "${taken.legalPage}": páginas legais e de campanha precisam de endereços diferentes.`
  if (taken.campaignPage)
    return `"${slug}" já é o endereço da página de campanha "${taken.campaignPage}": escolha outro.`
  if (taken.redirect)
    return `${path} já redireciona para ${taken.redirect}. Apague esse redirecionamento (Redirecionamentos) antes de usar o endereço.`
  return true
}

/**
 * True, or why this slug cannot be the address of this article (/conteudos/<slug>) or category
 * (/conteudos/categoria/<slug>): unique among its type, not a name the site routes under
 * /conteudos, and not where a redirect starts.
 */
export async function articleSlugRule(
  type: 'article' | 'category',
  slug: string | undefined,
  context: ValidationContext,
): Promise<string | true> {
  if (!slug) return true
  const problem = type === 'article' ? articleSlugProblem(slug) : slugProblem(slug)
  if (problem) return problem
  if (type === 'category') {
    const taken = await client(context).fetch<{ category: string | null }>(
      CATEGORY_SLUG_CONFLICT_QUERY,
      { slug, ...ownIds(context) },
      { tag: VALIDATION_QUERY_TAG },
    )
    return taken.category
      ? `"${slug}" já é o endereço da categoria "${taken.category}": escolha outro.`
      : true
  }
  const path = articlePath(slug)
  const taken = await client(context).fetch<{ article: string | null; redirect: string | null }>(
    ARTICLE_SLUG_CONFLICT_QUERY,
    { slug, path, ...ownIds(context) },
    { tag: VALIDATION_QUERY_TAG },
  )
  if (taken.article) return `"${slug}" já é o endereço do artigo "${taken.article}": escolha outro.`
  if (taken.redirect)
    return `${path} já redireciona para ${taken.redirect}. Apague esse redirecionamento (Redirecionamentos) antes de usar o endereço.`
  return true
}

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
  const { section: prefix, segment } = redirectSource(from)
  const reserved =
    prefix === 'p'
      ? undefined
      : prefix === 'conteudos'
        ? articleSlugProblem(segment)
        : slugProblem(segment)
  if (reserved)
    return `A origem ${from} não pode ser usada: ${reserved.replace(/^"[^"]+" não pode ser usado: /, '')}`
  if (!REDIRECT_TO_PATTERN.test(to))
    return 'O destino é um caminho do site (/p/onibus-rodoviarios) ou um endereço https://.'
  // The same judgement as the site's (lib/site-path.ts): the path the target resolves to.
  const landing = to.startsWith('/') ? landingPath(to) : undefined
  if (to.startsWith('/') && landing === undefined) return SITE_PATH_MESSAGE
  const target = landing ?? to.replace(/[?#].*$/, '').replace(/(.)\/+$/, '$1')
  if (target === from) return `O destino é a própria origem: ${from} levaria a si mesmo, sem fim.`
  const found = await client(context).fetch<{
    sameFrom: string | null
    leadsHere: string | null
    leadsOn: string | null
    legalPage: string | null
    campaignPage: string | null
    article: string | null
  }>(
    REDIRECT_CONFLICT_QUERY,
    {
      from,
      to: target,
      legalSlug: prefix ? '' : segment,
      campaignSlug: prefix === 'p' ? segment : '',
      articleSlug: prefix === 'conteudos' ? segment : '',
      ...ownIds(context),
    },
    { tag: VALIDATION_QUERY_TAG },
  )
  if (found.legalPage)
    return `${from} é a página legal "${found.legalPage}", que continua no ar: o redirecionamento nunca seria usado.`
  if (found.campaignPage)
    return `${from} é a página de campanha "${found.campaignPage}", que continua no ar: mude o endereço dela antes de redirecionar.`
  if (found.article)
    return `${from} é o artigo "${found.article}", que continua no ar: mude o endereço dele antes de redirecionar.`
  if (found.sameFrom) return `Já existe um redirecionamento de ${from} (para ${found.sameFrom}).`
  if (found.leadsOn)
    return `${target} já redireciona para ${found.leadsOn}: aponte direto para ${found.leadsOn}, sem encadear redirecionamentos${found.leadsOn === from ? ' (este formaria um ciclo)' : ''}.`
  if (found.leadsHere)
    return `${found.leadsHere} já redireciona para ${from}: mude aquele redirecionamento para ${target}, em vez de encadear dois.`
  return true
}

/**
 * The slug field of an article or a category: unique among its type, never a name /conteudos
 * routes for itself (articleSlugRule). One definition, so both keep the same rules.
 */
export const articleSlugField = (
  type: 'article' | 'category',
  description: string,
  group?: string,
) =>
  defineField({
    name: 'slug',
    title: 'Endereço (slug)',
    description,
    ...(group ? { group } : {}),
    type: 'slug',
    options: { source: 'title', maxLength: SLUG_MAX_LENGTH, isUnique: () => true },
    validation: (rule) =>
      rule
        .required()
        .custom((slug, context) =>
          articleSlugRule(type, (slug as SlugValue | undefined)?.current, context),
        )
        .error(),
  })

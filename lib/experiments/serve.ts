// How a request for a page with a running experiment is served (proxy.ts): which requests get the
// default without being assigned, where a variant's prerendered page lives, and which variant a
// front (deploy/nginx.conf) may name for the origin. Pure (the visitor's hash is passed in): the
// proxy, its variant answer for the front, the variant route and the tests share it
// (docs/experiments.md).

import { isBotAgent } from '../analytics/collect'
import { assignVariant } from './assign'
import { CONTROL } from './ids'
import type { ExperimentDefinition } from './definition'

/**
 * Where each variant's page is rendered and cached (ISR), like any other page: the proxy rewrites
 * the public path there, so the address bar keeps the public path. A name reserved at the root
 * (APP_ROUTES in sanity/lib/routed-type-rules.ts), so no page can take it; a direct request for it
 * answers 404 (proxy.ts). The page keeps its public path's robots and canonical: bots get the
 * default, and one the proxy took for a person would still index the public path, never drop it.
 */
export const VARIANT_PREFIX = '/variante'

/** The header a front (nginx) sends with the variant it keyed its cache on (deploy/nginx.conf). */
export const VARIANT_HEADER = 'x-vigia-variant'

/** The internal path of one variant of the page at `pagePath` ('/' or '/p/<slug>'). */
export function variantPath(experiment: string, variant: string, pagePath: string): string {
  return `${VARIANT_PREFIX}/${experiment}/${variant}${pagePath === '/' ? '' : pagePath}`
}

/** The draft mode cookie Next sets (/api/draft-mode/enable): an editor previewing. */
const DRAFT_COOKIE = '__prerender_bypass'

/** Whether the request comes from an editor in draft mode (a preview): never a visitor. */
export function isDraftMode(headers: Pick<Headers, 'get'>): boolean {
  return (headers.get('cookie') ?? '').split(/;\s*/).some((c) => c.startsWith(`${DRAFT_COOKIE}=`))
}

/**
 * Why this request gets the default without being assigned, or undefined when it is a visitor's
 * page view. Bots (the counting's own check), an editor in draft mode (the Studio's Presentation
 * tool and preview), and Next's prefetches and RSC navigations: a prefetch is not a view (a link
 * on screen is not a visit), and the client router's payload is cached per path in the browser,
 * so it gets the page every visitor can be shown, the default.
 */
export function unassignedReason(headers: Pick<Headers, 'get'>): string | undefined {
  if (isBotAgent(headers.get('user-agent'))) return 'bot'
  if (isDraftMode(headers)) return 'draft'
  if (
    headers.get('rsc') ||
    headers.get('next-router-prefetch') ||
    headers.get('next-router-state-tree') ||
    /prefetch/i.test(headers.get('purpose') ?? '') ||
    /prefetch/i.test(headers.get('sec-purpose') ?? '')
  )
    return 'prefetch'
  return undefined
}

/** The variant a front named, when it is one of this experiment's; undefined otherwise. */
export function namedVariant(
  value: string | null | undefined,
  experiment: ExperimentDefinition,
): string | undefined {
  if (!value) return undefined
  return experiment.variants.some((variant) => variant.key === value) ? value : undefined
}

/**
 * The variant this request is served, the one decision proxy.ts makes both for a page and for the
 * front's question (VARIANT_ANSWER_PATH). A variant named by the front wins; any other value it
 * names gets the default, never an assignment: the front stores the page under the value it sent,
 * so what it gets must not depend on whose request filled its cache. Without the header: the
 * default for bots, draft mode and prefetches, else the visitor's by today's hash.
 */
export async function chooseVariant(
  headers: Pick<Headers, 'get'>,
  experiment: ExperimentDefinition,
  visitorOf: (headers: Pick<Headers, 'get'>) => Promise<string>,
): Promise<string> {
  const named = headers.get(VARIANT_HEADER)
  if (named) return namedVariant(named, experiment) ?? CONTROL
  if (unassignedReason(headers)) return CONTROL
  return assignVariant(await visitorOf(headers), experiment.key, experiment.variants)
}

/**
 * Where a front asks which variant a request gets (deploy/nginx.conf, auth_request): the page's
 * address in VARIANT_URI_HEADER, the visitor's own headers; answered 204 by proxy.ts with the
 * variant in VARIANT_HEADER, or without it when no experiment runs there.
 */
export const VARIANT_ANSWER_PATH = '/api/experiments/variant'
export const VARIANT_URI_HEADER = 'x-original-uri'

/** Whether a variant key needs the rewrite (every one but the control, which is the page itself). */
export function needsRewrite(variant: string): boolean {
  return variant !== CONTROL
}

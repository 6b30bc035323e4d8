import { NextResponse, type NextRequest } from 'next/server'

import { visitorOfToday } from '@/lib/analytics/visitor'
import { runningExperiment, type ExperimentDefinition } from '@/lib/experiments/definition'
import {
  chooseVariant,
  needsRewrite,
  VARIANT_ANSWER_PATH,
  VARIANT_HEADER,
  VARIANT_PREFIX,
  VARIANT_URI_HEADER,
  variantPath,
} from '@/lib/experiments/serve'
import { formPostProblem } from '@/lib/forms/post-guard'
import { ownOrigin } from '@/lib/own-origin'
import {
  createRedirectMapCache,
  redirectFor,
  redirectTarget,
  type RoutingTable,
} from '@/lib/redirect-map'
import { isReviewTokenShape, REVIEW_PATH_PREFIX } from '@/lib/review-token'
import { clientIpFrom } from '@/lib/security/client-ip'
import { checkCalculatorLimits, checkReviewLinkLimits } from '@/lib/security/rate-limit'
import {
  internalHeaders,
  isInternalRequest,
  ROUTING_TABLE_PATH,
} from '@/lib/security/internal-request'

// Answers redirect documents and unknown addresses before any page, cache or Content Lake query,
// from the routing table of app/api/redirects (kept a second at most). Why here rather than in the
// pages: docs/content.md, "Campaign pages" (redirects), docs/security.md, "Unknown addresses".
// https://nextjs.org/docs/app/api-reference/file-conventions/proxy

/**
 * No route matches this path (two segments under a prefix nothing serves), so Next answers it
 * with its prerendered 404 page, status 404, the same one file for every unknown address.
 */
const NOT_FOUND_PATH = '/_nao-encontrado/404'

/**
 * The 404 page on this server's own origin. Not on request.url: behind an HTTPS front that URL is
 * https://localhost:<port> (X-Forwarded-Proto), which Next does not recognise as itself, so it
 * proxied the rewrite there over TLS to its own plain-HTTP port and answered 500.
 */
function notFoundPage(): URL {
  return new URL(NOT_FOUND_PATH, ownOrigin())
}

const routingTable = createRedirectMapCache(async (): Promise<RoutingTable> => {
  // With this server's internal secret: the table answers no one else (lib/security/internal-request.ts).
  const response = await fetch(new URL(ROUTING_TABLE_PATH, ownOrigin()), {
    cache: 'no-store',
    headers: internalHeaders(),
    // The internal secret goes to this server only, never after a redirect (issue 49).
    redirect: 'manual',
    signal: AbortSignal.timeout(2000),
  })
  if (!response.ok) throw new Error(`GET /api/redirects: HTTP ${response.status}`)
  const table = (await response.json()) as Partial<RoutingTable>
  if (!table || typeof table.redirects !== 'object' || typeof table.known !== 'object')
    throw new Error('GET /api/redirects: not a routing table')
  return table as RoutingTable
})

/**
 * The document section a path is under and the slug it names there, e.g. ['/p', 'onibus'] for
 * /p/onibus, ['/conteudos/categoria', 'lgpd'] for /conteudos/categoria/lgpd, and ['/conteudos',
 * 'x'] for /conteudos/x/opengraph-image: the segment right after the longest section prefix, so a
 * route below a document (its social image) is gated by the document's slug like its page.
 * Undefined for any other path.
 */
function sectionOf(pathname: string, table: RoutingTable): [string, string] | undefined {
  let found: [string, string] | undefined
  for (const prefix of Object.keys(table.known)) {
    if (!pathname.startsWith(`${prefix}/`)) continue
    if (found && found[0].length >= prefix.length) continue
    const slug = pathname.slice(prefix.length + 1).split('/')[0]
    if (slug) found = [prefix, slug]
  }
  return found
}

/**
 * A review link (/revisao/<token>): a malformed token is answered with the 404 page here (no
 * query, no render); a well-formed one costs an uncached Content Lake query, so its lookups are
 * rate-limited per visitor address and per instance (lib/security/rate-limit.ts), answered 429
 * past the limit. docs/security.md, "Unknown addresses".
 */
async function reviewGate(request: NextRequest, token: string) {
  if (!isReviewTokenShape(token)) return NextResponse.rewrite(notFoundPage())
  const verdict = await checkReviewLinkLimits(clientIpFrom(request.headers))
  if (verdict === 'ok') return NextResponse.next()
  return tooMany(
    'Muitas tentativas de abrir links de revisão em pouco tempo. Aguarde um minuto e tente de novo.',
  )
}

/** The savings calculator renders per request: limited like review links (rate-limit.ts). */
const CALCULATOR_PATH = '/calculadora'

async function calculatorGate(request: NextRequest) {
  const verdict = await checkCalculatorLimits(clientIpFrom(request.headers))
  if (verdict === 'ok') return NextResponse.next()
  return tooMany('Muitas estimativas pedidas em pouco tempo. Aguarde um minuto e tente de novo.')
}

function tooMany(message: string) {
  return new NextResponse(message, {
    status: 429,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'private, no-store',
      'retry-after': '60',
    },
  })
}

/**
 * A page with a running experiment (docs/experiments.md): the variant chooseVariant gives (the one
 * the front keyed its cache on, else the visitor's by today's hash, the default for bots, draft
 * mode and prefetches). Every other variant than the default is a rewrite to its own prerendered
 * page: no render per request, no cookie, no client swap.
 */
async function experimentPage(request: NextRequest, experiment: ExperimentDefinition) {
  const { pathname, search } = request.nextUrl
  const variant = await chooseVariant(request.headers, experiment, visitorOf)
  if (!needsRewrite(variant)) return NextResponse.next()
  // This server's own origin, as for the 404 page: behind a TLS front the request's URL says
  // https, and Next would proxy a rewrite there as to another host (analytics.spec.ts).
  const target = new URL(`${variantPath(experiment.key, variant, pathname)}${search}`, ownOrigin())
  // Next runs this proxy again on the rewritten path (tests/e2e/experiments.spec.ts): the internal
  // secret tells that pass from a visitor asking for the variant's address directly.
  const headers = new Headers(request.headers)
  for (const [name, value] of Object.entries(internalHeaders())) headers.set(name, value)
  return NextResponse.rewrite(target, { request: { headers } })
}

/** Today's visitor hash of this request (the counting's: address and browser). */
function visitorOf(headers: Pick<Headers, 'get'>): Promise<string> {
  return visitorOfToday(clientIpFrom(headers), headers.get('user-agent') ?? '')
}

/**
 * The front's question (deploy/nginx.conf): which variant the page at X-Original-URI gets for this
 * visitor, decided here, from the same routing table and by the same chooseVariant as the page, so
 * the front's cache key and the page it stores always agree. 204 always (nginx's auth_request
 * turns any other answer into an error), the variant in X-Vigia-Variant, none when no experiment
 * runs there. It says only what this visitor would be shown, so it answers anyone; no render, no
 * Content Lake request.
 */
async function variantAnswer(request: NextRequest) {
  const headers = new Headers({ 'cache-control': 'no-store' })
  const uri = request.headers.get(VARIANT_URI_HEADER)
  try {
    const table = uri ? await routingTable() : undefined
    const pathname = uri && new URL(uri, 'http://front').pathname
    const experiment = table && pathname && runningExperiment(table.experiments ?? [], pathname)
    if (experiment) {
      headers.set(VARIANT_HEADER, await chooseVariant(request.headers, experiment, visitorOf))
    }
  } catch (error) {
    // No variant: the front asks for the default, and the page is served all the same.
    console.error(
      `[experiments] No variant for the front: ${error instanceof Error ? error.message : error}`,
    )
  }
  return new NextResponse(null, { status: 204, headers })
}

export async function proxy(request: NextRequest) {
  if (request.nextUrl.pathname === VARIANT_ANSWER_PATH) return variantAnswer(request)
  // A page's POST is one of its forms (a Server Action): refused early when no form of ours sent it.
  if (request.method === 'POST' && !request.nextUrl.pathname.startsWith('/api/')) {
    const problem = formPostProblem(request.headers)
    if (problem) {
      return new NextResponse(problem.message, {
        status: problem.status,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': 'private, no-store',
        },
      })
    }
  }
  // The routing table lists pages not yet started and hidden redirects: only for this server
  // itself. Checked here, before Next serves the route from its cache, where its code never runs.
  if (request.nextUrl.pathname === ROUTING_TABLE_PATH) {
    return isInternalRequest(request.headers)
      ? NextResponse.next()
      : NextResponse.json({ message: 'Não encontrado.' }, { status: 404 })
  }
  if (request.nextUrl.pathname === CALCULATOR_PATH) return calculatorGate(request)
  if (request.nextUrl.pathname.startsWith(`${REVIEW_PATH_PREFIX}/`)) {
    return reviewGate(request, request.nextUrl.pathname.slice(REVIEW_PATH_PREFIX.length + 1))
  }
  const { pathname } = request.nextUrl
  // A variant's page is reached only by experimentPage's rewrite (its second pass here carries the
  // internal secret), never by its own address.
  if (pathname === VARIANT_PREFIX || pathname.startsWith(`${VARIANT_PREFIX}/`)) {
    return isInternalRequest(request.headers)
      ? NextResponse.next()
      : NextResponse.rewrite(notFoundPage())
  }
  const table = await routingTable()
  // No table yet (the server is starting, or the route failed): let the page answer.
  if (!table) return NextResponse.next()
  // A campaign page's own redirect applies only outside its visibility window (redirectFor).
  const found = redirectFor(table.redirects, pathname)
  if (found) {
    return NextResponse.redirect(
      redirectTarget(found.to, request.nextUrl),
      found.permanent ? 308 : 307,
    )
  }
  const section = sectionOf(pathname, table)
  if (section && !table.known[section[0]]?.includes(section[1])) {
    return NextResponse.rewrite(notFoundPage())
  }
  const experiment = runningExperiment(table.experiments ?? [], pathname)
  if (experiment) return experimentPage(request, experiment)
  return NextResponse.next()
}

// Only paths a redirect may start from (sanity/lib/routed-type-rules.ts), one segment at the root, every
// path under a document section (lib/known-paths.ts): campaign pages and articles, with what
// hangs below them (an article's social image), review links, and the routing table, to keep it
// internal; the home page (an experiment may run there) and the variants' internal paths, to
// keep them unreachable. Assets, the rest of the API and the Studio never pass through here.
// Next needs the matcher as literals.
export const config = {
  matcher: [
    '/',
    '/variante/:path*',
    '/:slug([a-z0-9-]+)',
    '/p/:path*',
    '/conteudos/:path*',
    '/materiais/:path*',
    '/revisao/:path*',
    '/api/redirects',
    '/api/experiments/variant',
  ],
}

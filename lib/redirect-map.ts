import {
  REDIRECT_FROM_PATTERN,
  REDIRECTABLE_SECTIONS,
  RESERVED_SLUGS,
  redirectSource,
} from '@/sanity/lib/routed-type-rules'

import { isVisible, type VisibilityWindow } from './content/visibility'
import type { ExperimentDefinition } from './experiments/definition'
import { isSitePath, landingPath, sitePath } from './site-path'
import { refreshing } from './refreshing'

export { isSitePath, sitePath }

/**
 * Path (e.g. "/onibus", "/p/antiga") to the redirect that starts there. An entry with a `window`
 * is a campaign page's own: it applies only outside the page's visibility window (before its
 * start, from its end), judged at each request (redirectFor).
 */
export type RedirectMap = Record<
  string,
  { to: string; permanent: boolean; window?: VisibilityWindow }
>

/** The redirect to answer for this path now, if any. */
export function redirectFor(map: RedirectMap, path: string, now = Date.now()) {
  const found = Object.hasOwn(map, path) ? map[path] : undefined
  if (!found) return undefined
  if (found.window && isVisible(found.window, now)) return undefined
  return found
}

/**
 * What proxy.ts answers from, built by app/api/redirects: the checked redirects, and for each
 * routed type's prefix (sanity/routed-type-definitions.ts) the slugs that exist, so an unknown one is
 * answered 404 without asking the Content Lake or rendering anything.
 */
export type RoutingTable = {
  redirects: RedirectMap
  known: Record<string, string[]>
  /** Every published experiment (lib/experiments/definition.ts); proxy.ts judges which run. */
  experiments?: ExperimentDefinition[]
}

/** How long the proxy trusts its copy of the table before asking the server again. */
export const REDIRECT_MAP_TTL_MS = 1000

type Loader = () => Promise<RoutingTable>

/**
 * A copy of the routing table shared by the requests of one process: refreshed at most once per
 * `ttlMs`, one refresh at a time, and on a failed refresh the last good copy is kept. With no copy
 * at all it answers undefined: then there are no redirects and no slug is known to be missing
 * (every request goes to its page, as without the table), never an error page.
 */
export function createRedirectMapCache(load: Loader, ttlMs = REDIRECT_MAP_TTL_MS) {
  const map = refreshing(load, {
    ttlMs,
    stale: 'wait',
    onError: (error) =>
      console.warn(`[redirects] could not refresh the redirect map: ${String(error)}`),
  })
  return (now = Date.now()): Promise<RoutingTable | undefined> => map.get(now)
}

// --- Checking redirect documents on the server ----------------------------------------------
// The Studio validates redirects (sanity/schema-types/path-rules.ts), but any token with write
// access can publish a document without the Studio, so the site checks them again before it
// obeys one (docs/security.md, "Redirect documents").

/** First path segments a redirect may never start from: the app's own routes and Next's. */
const RESERVED_FIRST_SEGMENTS = new Set([
  ...RESERVED_SLUGS.keys(),
  '_next',
  ...REDIRECTABLE_SECTIONS,
])

export type RedirectRules = {
  /** Hosts an https destination may name (REDIRECT_ALLOWED_HOSTS); empty: only site paths. */
  allowedHosts: readonly string[]
  /** Paths that are pages of the site (legal pages, campaign pages): never a redirect's source. */
  pagePaths: ReadonlySet<string>
  /** The site's own host (NEXT_PUBLIC_SITE_URL): an https URL to it is a site path. */
  siteHost?: string
}

/**
 * The redirect checked: the destination the site will answer with (a site path normalised by
 * sitePath, an https URL to the site itself turned into its path, or an https URL on an allowed
 * host), or why the site will not obey it (one English line for the log).
 */
function checkRedirect(
  redirect: { from?: unknown; to?: unknown },
  rules: RedirectRules,
): { problem: string } | { to: string } {
  const { from, to } = redirect
  if (typeof from !== 'string' || typeof to !== 'string')
    return { problem: 'from or to is missing' }
  if (!REDIRECT_FROM_PATTERN.test(from))
    return { problem: 'from is not a path a redirect may start from' }
  // An old address under a redirectable type's prefix (/p/<slug>, /conteudos/<slug>:
  // sanity/routed-type-definitions.ts) may redirect; the sections themselves and the names the site routes
  // under them may not.
  const { section, type, segment } = redirectSource(from)
  if (section === undefined && RESERVED_FIRST_SEGMENTS.has(segment))
    return { problem: `from ${from} is a reserved path of the site` }
  if (type?.reservedSlugs?.has(segment))
    return { problem: `from ${from} is a reserved path of the site` }
  if (rules.pagePaths.has(from)) return { problem: `from ${from} is a page that exists` }
  if (to.length > 300) return { problem: 'to is longer than 300 characters' }

  let target: string | undefined
  if (to.startsWith('/')) {
    target = sitePath(to)
    if (target === undefined)
      return {
        problem: 'to is not a plain path of this site (//, \\, dot segments or an encoded form)',
      }
  } else {
    let url: URL
    try {
      url = new URL(to)
    } catch {
      return { problem: 'to is neither a site path nor a URL' }
    }
    if (url.protocol !== 'https:') return { problem: 'to is not https' }
    if (url.username || url.password) return { problem: 'to carries credentials' }
    if (url.port) return { problem: 'to names a port' }
    const host = url.hostname.toLowerCase()
    if (rules.siteHost && host === rules.siteHost.toLowerCase()) {
      // Next writes a Location on the site's own host as a path, so it is checked as one.
      target = sitePath(`${url.pathname}${url.search}${url.hash}`)
      if (target === undefined)
        return {
          problem: 'to is not a plain path of this site (//, \\, dot segments or an encoded form)',
        }
    } else if (!rules.allowedHosts.includes(host)) {
      return { problem: `to names ${host}, which is not in REDIRECT_ALLOWED_HOSTS` }
    } else {
      return { to: url.href }
    }
  }
  if (landingPath(target) === from) return { problem: 'to leads back to from (a loop)' }
  return { to: target }
}

/**
 * Of redirect documents' raw `from` values, the paths a redirect may start from (checkRedirect's
 * first rule): the webhook requests these with the internal secret to warm them, so a `from`
 * such as "//attacker.example/x", published through the API without the Studio, must never be
 * one (it would send the secret off site).
 */
export function redirectSourcePaths(paths: readonly unknown[]): string[] {
  return paths.filter(
    (path): path is string => typeof path === 'string' && REDIRECT_FROM_PATTERN.test(path),
  )
}

/** Why the site will not obey this redirect (one English line for the log), or undefined. */
export function redirectProblem(
  redirect: { from?: unknown; to?: unknown },
  rules: RedirectRules,
): string | undefined {
  const checked = checkRedirect(redirect, rules)
  return 'problem' in checked ? checked.problem : undefined
}

/**
 * Drops, with one log line each, the entries through which a visitor would come back where they
 * started: A → B → A, whether written as paths or as https URLs to the site itself (both are
 * paths in the map by now), and whether the entries are redirect documents or pages' own
 * redirects outside their windows (two such pages sending visitors to each other loop while both
 * are outside their windows, so the pair is refused whatever the windows).
 */
function dropLoops(
  map: RedirectMap,
  log: (line: string) => void,
  what: (from: string) => string,
  /** Entries to drop first when they close a loop (pages' window redirects, not documents). */
  first: ReadonlySet<string> = new Set(),
) {
  const landing = (from: string) => {
    const to = map[from]?.to
    return to?.startsWith('/') ? landingPath(to) : undefined
  }
  const keys = Object.keys(map)
  for (const start of [
    ...keys.filter((key) => first.has(key)),
    ...keys.filter((key) => !first.has(key)),
  ]) {
    if (!Object.hasOwn(map, start)) continue
    const seen = new Set([start])
    let next = landing(start)
    while (next !== undefined && Object.hasOwn(map, next)) {
      if (next === start) {
        log(`[redirects] Skipped ${what(start)}: it is part of a loop.`)
        delete map[start]
        break
      }
      // A loop further on, not through `start`: it is dropped when its own turn comes.
      if (seen.has(next)) break
      seen.add(next)
      next = landing(next)
    }
  }
}

const documentLabel = (from: string) => `the redirect from ${JSON.stringify(from)}`

/**
 * The redirects the site obeys: each document checked (redirectProblem), with its destination
 * normalised; a refused one is left out with one log line naming its source and why, never an
 * error. Redirects that lead, through each other, back to where they started are left out too.
 */
export function buildRedirectMap(
  documents: ReadonlyArray<{ from?: unknown; to?: unknown; permanent?: unknown }>,
  rules: RedirectRules,
  log: (line: string) => void = (line) => console.warn(line),
): RedirectMap {
  const map: RedirectMap = {}
  for (const document of documents) {
    const checked = checkRedirect(document, rules)
    if ('problem' in checked) {
      const from = typeof document.from === 'string' ? document.from.slice(0, 80) : '?'
      log(`[redirects] Skipped the redirect from ${JSON.stringify(from)}: ${checked.problem}.`)
      continue
    }
    map[document.from as string] = { to: checked.to, permanent: document.permanent !== false }
  }
  dropLoops(map, log, documentLabel)
  return map
}

/**
 * Adds each campaign page's "outside its window, send visitors to" to the map: temporary (307),
 * and only while the page is not live, which proxy.ts judges per request from the window carried
 * here, so the map never has to change at a boundary. Its destination is checked like a redirect
 * document's (the page itself being its source is the point, so that one rule is waived); a
 * refused one is left out with one log line, and the page then answers 404 outside its window.
 */
export function addWindowRedirects(
  map: RedirectMap,
  pages: ReadonlyArray<{
    path: string
    to?: string | null
    window: VisibilityWindow
  }>,
  rules: RedirectRules,
  log: (line: string) => void = (line) => console.warn(line),
): RedirectMap {
  const waived = { ...rules, pagePaths: new Set<string>() }
  const windowed = new Set<string>()
  for (const page of pages) {
    if (!page.to) continue
    const checked = checkRedirect({ from: page.path, to: page.to }, waived)
    if ('problem' in checked) {
      log(
        `[redirects] Skipped the window redirect of ${JSON.stringify(page.path)}: ${checked.problem}.`,
      )
      continue
    }
    map[page.path] = { to: checked.to, permanent: false, window: page.window }
    windowed.add(page.path)
  }
  // A loop through a page's window redirect exists only outside that window: the page's redirect
  // goes, and the redirect documents keep working while it is live.
  dropLoops(
    map,
    log,
    (from) =>
      windowed.has(from) ? `the window redirect of ${JSON.stringify(from)}` : documentLabel(from),
    windowed,
  )
  return map
}

/**
 * The destination with the visitor's query string kept: UTM tags and any other parameter they
 * came with are added to the destination's own (whose parameters win when both name one).
 */
export function redirectTarget(to: string, requestUrl: URL): URL {
  const target = new URL(to, requestUrl)
  for (const [name, value] of requestUrl.searchParams) {
    if (!target.searchParams.has(name)) target.searchParams.append(name, value)
  }
  return target
}

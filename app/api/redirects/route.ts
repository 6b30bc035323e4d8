import { serverEnv } from '@/lib/env'
import { getExperiments, getRedirects } from '@/lib/content'
import { documentPathsOf, knownSlugsOf, routedEntries } from '@/lib/known-paths'
import { addWindowRedirects, buildRedirectMap, type RoutingTable } from '@/lib/redirect-map'
import { ROUTED, ROUTED_TYPE_NAMES, routedPath } from '@/lib/routed-type-plans'

// What proxy.ts answers from: the redirect documents, checked (lib/redirect-map.ts), as a map
// from path to target, and the slugs each routed type has (lib/routed-type-plans.ts). Cached like
// the pages (no Content Lake request per visitor) and revalidated by the webhook's redirect and
// routed types' list tags (and the experiments') on every instance; the proxy keeps a copy for a second at most.
// Internal: it lists pages not yet started, their start times and hidden redirects, so proxy.ts
// answers it only to this server itself (lib/security/internal-request.ts), and the reference
// front denies it too (deploy/nginx.conf).
export const revalidate = 3600

export async function GET() {
  const [redirects, entries, experiments] = await Promise.all([
    getRedirects(),
    routedEntries(),
    getExperiments(),
  ])
  const rules = {
    allowedHosts: serverEnv.redirectAllowedHosts,
    pagePaths: documentPathsOf(entries),
    siteHost: new URL(serverEnv.siteUrl).hostname,
  }
  // A document of a windowed type outside its visibility window whose editor chose where to send
  // visitors (docs/campaigns.md): in the map with its window, applied by proxy.ts only while not live.
  const windowRedirects = ROUTED_TYPE_NAMES.filter((name) => ROUTED[name].windowed).flatMap(
    (name) =>
      entries[name].flatMap((entry) =>
        entry.hiddenRedirect && entry.window
          ? [{ path: routedPath(name, entry.slug), to: entry.hiddenRedirect, window: entry.window }]
          : [],
      ),
  )
  const table: RoutingTable = {
    redirects: addWindowRedirects(buildRedirectMap(redirects, rules), windowRedirects, rules),
    known: knownSlugsOf(entries),
    // The experiments with their windows: proxy.ts judges at each request which one runs where.
    experiments,
  }
  return Response.json(table)
}

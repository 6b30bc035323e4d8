import { serverEnv } from '@/lib/env'
import { getRedirects } from '@/lib/content'
import { documentPagePaths, knownSlugs } from '@/lib/known-paths'
import { buildRedirectMap, type RoutingTable } from '@/lib/redirect-map'

// What proxy.ts answers from: the redirect documents, checked (lib/redirect-map.ts), as a map
// from path to target, and the slugs each document section has (lib/known-paths.ts). Cached like
// the pages (no Content Lake request per visitor) and revalidated by the webhook's redirect,
// campaignPage and legalPage tags on every instance; the proxy keeps a copy for a second at most.
export const revalidate = 3600

export async function GET() {
  const [redirects, known, pagePaths] = await Promise.all([
    getRedirects(),
    knownSlugs(),
    documentPagePaths(),
  ])
  const table: RoutingTable = {
    redirects: buildRedirectMap(redirects, {
      allowedHosts: serverEnv.redirectAllowedHosts,
      pagePaths,
      siteHost: new URL(serverEnv.siteUrl).hostname,
    }),
    known,
  }
  return Response.json(table)
}

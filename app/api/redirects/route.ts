import { serverEnv } from '@/lib/env'
import { getArticleSlugs, getCampaignPageSlugs, getRedirects } from '@/lib/content'
import { documentPagePaths, knownSlugs } from '@/lib/known-paths'
import { addWindowRedirects, buildRedirectMap, type RoutingTable } from '@/lib/redirect-map'
import { articlePath, campaignPath } from '@/sanity/lib/paths'

// What proxy.ts answers from: the redirect documents, checked (lib/redirect-map.ts), as a map
// from path to target, and the slugs each document section has (lib/known-paths.ts). Cached like
// the pages (no Content Lake request per visitor) and revalidated by the webhook's redirect,
// campaignPage and legalPage tags on every instance; the proxy keeps a copy for a second at most.
// Internal: it lists pages not yet started, their start times and hidden redirects, so proxy.ts
// answers it only to this server itself (lib/security/internal-request.ts), and the reference
// front denies it too (deploy/nginx.conf).
export const revalidate = 3600

export async function GET() {
  const [redirects, known, pagePaths, campaignPages, articles] = await Promise.all([
    getRedirects(),
    knownSlugs(),
    documentPagePaths(),
    getCampaignPageSlugs(),
    getArticleSlugs(),
  ])
  const rules = {
    allowedHosts: serverEnv.redirectAllowedHosts,
    pagePaths,
    siteHost: new URL(serverEnv.siteUrl).hostname,
  }
  // A campaign page or an article outside its visibility window whose editor chose where to send
  // visitors (docs/campaigns.md): in the map with its window, applied by proxy.ts only while not live.
  const windowRedirects = [
    ...campaignPages.map((page) => ({ ...page, path: page.slug && campaignPath(page.slug) })),
    ...articles.map((article) => ({ ...article, path: article.slug && articlePath(article.slug) })),
  ].flatMap((doc) =>
    doc.path && doc.hiddenRedirect
      ? [
          {
            path: doc.path,
            to: doc.hiddenRedirect,
            window: { visibleFrom: doc.visibleFrom, visibleUntil: doc.visibleUntil },
          },
        ]
      : [],
  )
  const table: RoutingTable = {
    redirects: addWindowRedirects(buildRedirectMap(redirects, rules), windowRedirects, rules),
    known,
  }
  return Response.json(table)
}

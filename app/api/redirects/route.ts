import { getCampaignPageSlugs, getRedirects } from '@/lib/content'
import type { RedirectMap } from '@/lib/redirect-map'
import { campaignPath } from '@/sanity/lib/paths'

// The redirect documents as a map from path to target, for proxy.ts. Cached like the pages (no
// Content Lake request per visitor) and revalidated by the webhook's redirect tag on every
// instance; the proxy keeps a copy for a second at most.
export const revalidate = 3600

export async function GET() {
  const map: RedirectMap = {}
  const [redirects, campaignPages] = await Promise.all([getRedirects(), getCampaignPageSlugs()])
  // A campaign page's "outside its window, send visitors to": temporary (307), and only while the
  // page is not live, which proxy.ts judges per request from the window carried here, so this map
  // never has to change at a boundary.
  for (const page of campaignPages) {
    if (!page.slug || !page.hiddenRedirect) continue
    const from = campaignPath(page.slug)
    if (page.hiddenRedirect === from) continue
    map[from] = {
      to: page.hiddenRedirect,
      permanent: false,
      window: { visibleFrom: page.visibleFrom, visibleUntil: page.visibleUntil },
    }
  }
  for (const redirect of redirects) {
    if (redirect.from && redirect.to && redirect.to !== redirect.from)
      map[redirect.from] = { to: redirect.to, permanent: redirect.permanent !== false }
  }
  return Response.json(map)
}

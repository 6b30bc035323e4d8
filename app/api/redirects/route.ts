import { getRedirects } from '@/lib/content'
import type { RedirectMap } from '@/lib/redirect-map'

// The redirect documents as a map from path to target, for proxy.ts. Cached like the pages (no
// Content Lake request per visitor) and revalidated by the webhook's redirect tag on every
// instance; the proxy keeps a copy for a second at most.
export const revalidate = 3600

export async function GET() {
  const map: RedirectMap = {}
  for (const redirect of await getRedirects()) {
    if (redirect.from && redirect.to && redirect.to !== redirect.from)
      map[redirect.from] = { to: redirect.to, permanent: redirect.permanent !== false }
  }
  return Response.json(map)
}

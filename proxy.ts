import { NextResponse, type NextRequest } from 'next/server'

import { createRedirectMapCache, type RedirectMap } from '@/lib/redirect-map'

// Redirect documents (Studio: Redirecionamentos) are answered here, before any page or cache:
// a page route that called redirect() would have Next store the answer in the ISR cache, and a
// background regeneration of such an entry stores the 308 without its Location header (Next
// 16.4), so the redirect would break an hour later. The map comes from app/api/redirects, a
// cached route the webhook revalidates; this process keeps it for a second at most, so a
// published redirect applies within seconds on every instance, with no deploy.
// https://nextjs.org/docs/app/api-reference/file-conventions/proxy

/** This server itself (the proxy runs inside it), never the public address and its CDN. */
function ownOrigin(): string {
  return process.env.__NEXT_PRIVATE_ORIGIN || `http://127.0.0.1:${process.env.PORT || 3000}`
}

const redirectMap = createRedirectMapCache(async (): Promise<RedirectMap> => {
  const response = await fetch(new URL('/api/redirects', ownOrigin()), {
    cache: 'no-store',
    signal: AbortSignal.timeout(2000),
  })
  if (!response.ok) throw new Error(`GET /api/redirects: HTTP ${response.status}`)
  return (await response.json()) as RedirectMap
})

export async function proxy(request: NextRequest) {
  const found = (await redirectMap())[request.nextUrl.pathname]
  if (!found) return NextResponse.next()
  return NextResponse.redirect(new URL(found.to, request.url), found.permanent ? 308 : 307)
}

// Only paths a redirect may start from (sanity/lib/paths.ts): one segment at the root, or a
// campaign page's or an article's. The home page, assets, the API and the Studio never pass
// through here.
export const config = {
  matcher: ['/:slug([a-z0-9-]+)', '/p/:slug([a-z0-9-]+)', '/conteudos/:slug([a-z0-9-]+)'],
}

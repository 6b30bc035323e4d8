import 'server-only'

import { permanentRedirect, redirect } from 'next/navigation'

import { getRedirect } from './index'

/**
 * Answers a path that has no page with its redirect document, if one starts there: 308 for a
 * permanent one, 307 for a temporary one. Called by the routes just before they answer 404, so a
 * page always wins over a redirect (the Studio refuses a redirect from a live page anyway). Cached
 * with the redirect tag: publishing a redirect revalidates it (webhook) with no deploy.
 */
export async function redirectIfMoved(path: string): Promise<void> {
  const found = await getRedirect(path)
  if (!found?.to || found.to === path) return
  if (found.permanent === false) redirect(found.to)
  permanentRedirect(found.to)
}

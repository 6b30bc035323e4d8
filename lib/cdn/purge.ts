import 'server-only'

import { serverEnv } from '@/lib/env'

/**
 * Purges pages from the CDN or caching proxy in front of the site, after a publish.
 *
 * Why: Next sends ISR pages with `Cache-Control: s-maxage=<revalidate>, stale-while-revalidate=
 * <expireTime - revalidate>` (here s-maxage=3600). Next overwrites a Cache-Control set for such a
 * page in next.config.ts headers(), and the one knob it leaves, `expireTime`, is also how long the
 * server's own ISR entry lives: shortening it would make a visitor wait on (or fail with) the
 * Content Lake once an entry expires. So the header stays as Next writes it, which lets a CDN
 * keep the page for an hour and serve it stale while the origin is down, and a publish purges it.
 * https://nextjs.org/docs/app/api-reference/config/next-config-js/expireTime
 *
 * The call: `POST CDN_PURGE_URL` with `Authorization: Bearer CDN_PURGE_TOKEN` and the body
 * `{"files": ["https://site/", ...]}`. That is Cloudflare's purge-by-URL API as it is, with
 * CDN_PURGE_URL=https://api.cloudflare.com/client/v4/zones/<zone id>/purge_cache and an API token
 * with the Zone > Cache Purge permission:
 * https://developers.cloudflare.com/api/resources/cache/methods/purge/
 * Any other front can take the same request (or a small adapter in front of its own API).
 */

/** Public pages a publish can change; the front caches each of them. */
export const PURGED_PATHS = ['/', '/sitemap.xml'] as const

export type PurgeOptions = {
  /** Attempts in all, the first included. */
  attempts?: number
  /** Per attempt; a purge is never worth holding anything for long. */
  timeoutMs?: number
  /** Before the second attempt, doubled before each further one. */
  backoffMs?: number
  fetchImpl?: typeof fetch
  endpoint?: string
  token?: string
}

export type PurgeResult =
  { ok: true; attempts: number } | { ok: false; attempts: number; error: string }

/** True when a purge endpoint is configured. */
export function isCdnPurgeConfigured(): boolean {
  return Boolean(serverEnv.cdnPurgeUrl)
}

/**
 * Purges these absolute URLs; retries a network error, a time-out, a 429 or a 5xx answer, and
 * logs the last failure. Never throws: a failed purge leaves the CDN on its s-maxage, no worse.
 */
export async function purgeCdnUrls(
  urls: string[],
  options: PurgeOptions = {},
): Promise<PurgeResult> {
  const endpoint = options.endpoint ?? serverEnv.cdnPurgeUrl
  const token = options.token ?? serverEnv.cdnPurgeToken
  if (!endpoint) return { ok: true, attempts: 0 }
  const attempts = options.attempts ?? 3
  const timeoutMs = options.timeoutMs ?? 5000
  const doFetch = options.fetchImpl ?? fetch
  let backoff = options.backoffMs ?? 500
  let error = 'no attempt'
  let made = 0

  for (let attempt = 1; attempt <= attempts; attempt++) {
    made = attempt
    try {
      const response = await doFetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ files: urls }),
        signal: AbortSignal.timeout(timeoutMs),
        cache: 'no-store',
      })
      if (response.ok) {
        console.info(`[cdn] purged ${urls.join(' ')}`)
        return { ok: true, attempts: attempt }
      }
      error = `HTTP ${response.status} ${(await response.text().catch(() => '')).slice(0, 200)}`
      // A 4xx other than 429 (bad token, bad zone) will not get better by asking again.
      if (response.status < 500 && response.status !== 429) break
    } catch (caught) {
      error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)
    }
    if (attempt < attempts) {
      await new Promise((resolve) => setTimeout(resolve, backoff))
      backoff *= 2
    }
  }
  console.error(
    `[cdn] could not purge ${urls.join(' ')} at ${endpoint} after ${made} attempt(s): ${error}. ` +
      'The front keeps serving its copy until its own cache time ends.',
  )
  return { ok: false, attempts: made, error }
}

/**
 * Purges every public page under this origin: PURGED_PATHS and the `paths` given (the legal
 * pages, whose list is content: site settings are in every page's footer, so a settings publish
 * changes them all).
 */
export function purgePublicPages(
  origin: string,
  { paths = [], ...options }: PurgeOptions & { paths?: string[] } = {},
): Promise<PurgeResult> {
  return purgeCdnUrls(
    [...new Set([...PURGED_PATHS, ...paths])].map((path) => new URL(path, origin).href),
    options,
  )
}

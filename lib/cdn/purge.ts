import 'server-only'

import { serverEnv } from '@/lib/env'
import { retryAfterMs } from '@/lib/retry-after'

// Purges the changed pages from the CDN in front, after a publish. Next's ISR header lets a CDN
// keep a page for an hour (s-maxage), and shortening it (expireTime) would shorten the server's own
// cache too, so a publish purges instead. The request is Cloudflare's purge API as it is; any
// front can take it. docs/deploying.md, "CDN purge".
// https://developers.cloudflare.com/api/resources/cache/methods/purge/

/** Public pages a publish can change; the front caches each of them. */
export const PURGED_PATHS = ['/', '/sitemap.xml'] as const

/** Cloudflare's limit of URLs, tags or prefixes in one purge request. */
export const PURGE_BATCH = 100
/** The longest a 429's Retry-After is waited out before giving up on that batch. */
const MAX_RETRY_AFTER_MS = 60_000

export type PurgeOptions = {
  /** Attempts per request, the first included. */
  attempts?: number
  /** Per attempt; a purge is never worth holding anything for long. */
  timeoutMs?: number
  /** Before the second attempt, doubled before each further one (a 429's Retry-After wins). */
  backoffMs?: number
  fetchImpl?: typeof fetch
  /** How a wait between attempts is made (tests record it instead). */
  sleep?: (ms: number) => Promise<void>
  endpoint?: string
  token?: string
}

export type PurgeResult =
  { ok: true; attempts: number } | { ok: false; attempts: number; error: string }

type PurgeBody = { files: string[] } | { prefixes: string[] }

/** True when a purge endpoint is configured. */
export function isCdnPurgeConfigured(): boolean {
  return Boolean(serverEnv.cdnPurgeUrl)
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** One purge request, retried on a network error, a time-out, a 429 or a 5xx. Never throws. */
async function sendPurge(body: PurgeBody, options: PurgeOptions): Promise<PurgeResult> {
  const endpoint = options.endpoint ?? serverEnv.cdnPurgeUrl
  const token = options.token ?? serverEnv.cdnPurgeToken
  if (!endpoint) return { ok: true, attempts: 0 }
  const attempts = options.attempts ?? 3
  const timeoutMs = options.timeoutMs ?? 5000
  const doFetch = options.fetchImpl ?? fetch
  let backoff = options.backoffMs ?? 500
  let error = 'no attempt'
  let made = 0
  const items = 'files' in body ? body.files : body.prefixes

  for (let attempt = 1; attempt <= attempts; attempt++) {
    made = attempt
    let wait = backoff
    try {
      const response = await doFetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        cache: 'no-store',
      })
      if (response.ok) {
        console.info(`[cdn] purged ${items.join(' ')}`)
        return { ok: true, attempts: attempt }
      }
      error = `HTTP ${response.status} ${(await response.text().catch(() => '')).slice(0, 200)}`
      // A 4xx other than 429 (bad token, bad zone) will not get better by asking again.
      if (response.status < 500 && response.status !== 429) break
      if (response.status === 429) {
        const asked = retryAfterMs(response.headers.get('retry-after'))
        if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) break
        wait = Math.max(wait, asked ?? 0)
      }
    } catch (caught) {
      error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)
    }
    if (attempt < attempts) {
      await (options.sleep ?? defaultSleep)(wait)
      backoff *= 2
    }
  }
  console.error(
    `[cdn] could not purge ${items.join(' ')} at ${endpoint} after ${made} attempt(s): ${error}. ` +
      'The front keeps serving its copy until its own cache time ends.',
  )
  return { ok: false, attempts: made, error }
}

/** Requests of at most PURGE_BATCH items, one after another; the attempts of all of them. */
async function sendBatches(
  kind: 'files' | 'prefixes',
  items: readonly string[],
  options: PurgeOptions,
): Promise<PurgeResult> {
  let attempts = 0
  let failure: string | undefined
  for (let start = 0; start < items.length; start += PURGE_BATCH) {
    const batch = items.slice(start, start + PURGE_BATCH)
    const result = await sendPurge(
      kind === 'files' ? { files: batch } : { prefixes: batch },
      options,
    )
    attempts += result.attempts
    if (!result.ok) failure ??= result.error
  }
  return failure === undefined ? { ok: true, attempts } : { ok: false, attempts, error: failure }
}

/** Purges these absolute URLs, PURGE_BATCH a request. Never throws. */
export function purgeCdnUrls(urls: string[], options: PurgeOptions = {}): Promise<PurgeResult> {
  return sendBatches('files', [...new Set(urls)], options)
}

/**
 * Purges the pages at these paths under this origin (PURGED_PATHS always), and everything under
 * these path prefixes (Cloudflare's form: host and path, no scheme), for the lists too long to
 * name one by one: every article page, every page. Never throws.
 */
export async function purgePublicPages(
  origin: string,
  {
    paths = [],
    prefixes = [],
    ...options
  }: PurgeOptions & { paths?: string[]; prefixes?: string[] } = {},
): Promise<PurgeResult> {
  const files = await purgeCdnUrls(
    [...new Set([...PURGED_PATHS, ...paths])].map((path) => new URL(path, origin).href),
    options,
  )
  if (prefixes.length === 0) return files
  const host = new URL(origin).host
  const byPrefix = await sendBatches(
    'prefixes',
    [...new Set(prefixes)].map((prefix) => `${host}${prefix}`),
    options,
  )
  const attempts = files.attempts + byPrefix.attempts
  if (!files.ok) return { ...files, attempts }
  if (!byPrefix.ok) return { ...byPrefix, attempts }
  return { ok: true, attempts }
}

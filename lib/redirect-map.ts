import { isVisible, type VisibilityWindow } from './content/visibility'

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

/** How long the proxy trusts its copy of the map before asking the server again. */
export const REDIRECT_MAP_TTL_MS = 1000

type Loader = () => Promise<RedirectMap>

/**
 * A copy of the redirect map shared by the requests of one process: refreshed at most once per
 * `ttlMs`, one refresh at a time, and on a failed refresh the last good copy is kept (no copy at
 * all means no redirects, never an error page).
 */
export function createRedirectMapCache(load: Loader, ttlMs = REDIRECT_MAP_TTL_MS) {
  let copy: { map: RedirectMap; at: number } | undefined
  let pending: Promise<RedirectMap> | undefined
  return function current(now = Date.now()): Promise<RedirectMap> {
    if (copy && now - copy.at < ttlMs) return Promise.resolve(copy.map)
    pending ??= load()
      .then((map) => {
        copy = { map, at: Date.now() }
        return map
      })
      .catch((error: unknown) => {
        console.warn(`[redirects] could not refresh the redirect map: ${String(error)}`)
        return copy?.map ?? {}
      })
      .finally(() => {
        pending = undefined
      })
    return pending
  }
}

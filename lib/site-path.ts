// The one decision "is this redirect target a path of this site?", shared by the server's
// redirect table (lib/redirect-map.ts), the Studio's validation (sanity/schema-types/path-rules.ts
// and visibility.ts) and draft mode's enable route. No imports: the Studio bundles it too.
// docs/security.md, "Redirect documents".

/** Any origin that cannot be a real host: a target is resolved against it. */
const PROBE_ORIGIN = 'https://site.invalid'

/** Percent-decodes until stable (at most a few rounds); undefined when the encoding is broken. */
export function fullyDecoded(value: string): string | undefined {
  let current = value
  for (let round = 0; round < 4; round++) {
    let next: string
    try {
      next = decodeURIComponent(current)
    } catch {
      return undefined
    }
    if (next === current) return current
    current = next
  }
  return current
}

/** "//host" or "/\host": a browser reads either as another host. */
const HOST_START = /^\/[/\\]/

/**
 * The normalised path, query and hash `to` leads to on this site, or undefined when `to` is not a
 * path of this site. It judges the URL `to` resolves to, as a browser (and Next's redirect) would:
 * "/.//evil.example", "/%2e//evil.example" and "/a/..//evil.example" all resolve to the path
 * "//evil.example", which a Location header sends to another host. Refused: a target that does not
 * start with one "/"; one whose resolved URL leaves the probe's origin; one whose resolved path, or
 * that path fully decoded, starts with "//" or "/\"; and, in the raw text or any decoding of it,
 * a backslash, whitespace or a control character, or a broken percent-encoding.
 */
export function sitePath(to: string): string | undefined {
  if (typeof to !== 'string' || !to.startsWith('/')) return undefined
  const decoded = fullyDecoded(to)
  if (decoded === undefined) return undefined
  for (const form of [to, decoded]) {
    if (HOST_START.test(form) || form.includes('\\') || /[\s\p{Cc}]/u.test(form)) return undefined
  }
  let url: URL
  try {
    url = new URL(to, PROBE_ORIGIN)
  } catch {
    return undefined
  }
  if (url.origin !== PROBE_ORIGIN) return undefined
  const pathDecoded = fullyDecoded(url.pathname)
  if (pathDecoded === undefined) return undefined
  if (HOST_START.test(url.pathname) || HOST_START.test(pathDecoded)) return undefined
  return `${url.pathname}${url.search}${url.hash}`
}

/** True when `to` is a path of this site (sitePath). */
export function isSitePath(to: string): boolean {
  return sitePath(to) !== undefined
}

/**
 * The page a site path lands on, for loop checks: the resolved path fully decoded, without a
 * trailing slash ("/./a/" and "/%61" are "/a"), with no query or hash. Undefined when `to` is not
 * a site path.
 */
export function landingPath(to: string): string | undefined {
  const path = sitePath(to)
  if (path === undefined) return undefined
  const pathname = path.replace(/[?#].*$/s, '')
  const decoded = fullyDecoded(pathname) ?? pathname
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded
}

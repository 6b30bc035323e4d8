import 'server-only'

import { signFor } from '@/lib/security/form-token'
import { sameSecret } from '@/lib/security/same-secret'
import { materialDownloadPath } from '@/sanity/lib/paths'

// A material's download link (issue 65, docs/leads.md "Materials"): handed out only after a valid
// form, on the site's own origin, good for MATERIAL_LINK_TTL_MS. It names the material's slug
// (already public) and an expiry, signed with the site's key (lib/security/form-token.ts): no
// internal id, nothing to enumerate, and a changed slug, expiry or signature is refused.

export const MATERIAL_LINK_TTL_MS = 24 * 60 * 60_000
/** The query parameter that carries "<expiry in seconds>.<signature>". */
export const DOWNLOAD_KEY_PARAM = 'chave'

const PURPOSE = 'material-download'

function signature(slug: string, expires: number): string {
  return signFor(PURPOSE, `${slug}:${expires}`)
}

/** The path (with its key) that downloads `slug`'s file until now + MATERIAL_LINK_TTL_MS. */
export function materialDownloadHref(slug: string, now = Date.now()): string {
  const expires = Math.floor((now + MATERIAL_LINK_TTL_MS) / 1000)
  const key = `${expires}.${signature(slug, expires)}`
  return `${materialDownloadPath(slug)}?${DOWNLOAD_KEY_PARAM}=${key}`
}

/** When the link expires (ms), for the confirmation's text. */
export function materialLinkExpiry(href: string): number | null {
  const match = /[?&]chave=(\d{9,11})\./.exec(href)
  return match ? Number(match[1]) * 1000 : null
}

export type DownloadKeyVerdict = 'ok' | 'expired' | 'invalid'

/**
 * Whether `key` opens `slug`'s download now: 'invalid' when it is malformed or not signed for this
 * slug (tampered), 'expired' when genuine but past its expiry.
 */
export function checkDownloadKey(
  slug: string,
  key: string | null,
  now = Date.now(),
): DownloadKeyVerdict {
  const match = /^(\d{9,11})\.([A-Za-z0-9_-]{43})$/.exec(key ?? '')
  if (!match) return 'invalid'
  const [, expires, signed] = match as unknown as [string, string, string]
  if (!sameSecret(signed, signature(slug, Number(expires)))) return 'invalid'
  return Number(expires) * 1000 <= now ? 'expired' : 'ok'
}

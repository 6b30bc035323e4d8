// Review links (docs/campaigns.md, "Review links"): a long random token in the URL, and only its
// SHA-256 hash in the dataset, so whoever can read the dataset still cannot build a working link.
// Web Crypto only: the Studio (browser) makes tokens, the site (Node) checks them, with one code.

/** 32 random bytes, base64url without padding: 43 characters, 256 bits. */
export const REVIEW_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** Where a review link leads: /revisao/<token>. */
export const REVIEW_PATH_PREFIX = '/revisao'

/** The review link's document id prefix: ids with a dot are private in a Sanity dataset. */
export const REVIEW_LINK_ID_PREFIX = 'review-links.'

/** Default and allowed validity, in days. */
export const REVIEW_LINK_DEFAULT_DAYS = 7
export const REVIEW_LINK_DAY_CHOICES = [1, 3, 7, 14, 30] as const

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** A new token (crypto.getRandomValues). */
export function createReviewToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)))
}

/** Whether a URL segment could be a token at all (checked before any query). */
export function isReviewTokenShape(value: string): boolean {
  return REVIEW_TOKEN_PATTERN.test(value)
}

/** The hex SHA-256 of the token: what the reviewLink document stores. */
export async function hashReviewToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * The longest a review link may live, counted from its creation in the Content Lake
 * (`_createdAt`). The Studio offers at most this (REVIEW_LINK_DAY_CHOICES), but it sets
 * `expiresAt` in the editor's browser, so anyone with write access could store another date:
 * the server refuses a link whose `expiresAt` lies further than this from its creation.
 */
export const REVIEW_LINK_MAX_DAYS = 30

/** Room for the editor's clock, which sets `expiresAt`, to run ahead of the Content Lake's. */
const CLOCK_SLACK_MS = 60 * 60_000

/**
 * Whether a review link with this state may be used at `now`: not revoked, not expired, and
 * created (`createdAt`, the document's `_createdAt`) no more than REVIEW_LINK_MAX_DAYS before its
 * `expiresAt`. A link without a creation time cannot be checked, so it is refused.
 */
export function isReviewLinkUsable(
  link:
    | { expiresAt?: string | null; revoked?: boolean | null; createdAt?: string | null }
    | null
    | undefined,
  now = Date.now(),
): boolean {
  if (!link || link.revoked) return false
  const expires = link.expiresAt ? Date.parse(link.expiresAt) : Number.NaN
  const created = link.createdAt ? Date.parse(link.createdAt) : Number.NaN
  if (!Number.isFinite(expires) || !Number.isFinite(created)) return false
  if (expires - created > REVIEW_LINK_MAX_DAYS * 86_400_000 + CLOCK_SLACK_MS) return false
  return now < expires
}

/** The reviewLink document the Studio writes for a new token's hash (sanity/actions/review-link.tsx). */
export function reviewLinkDocument({
  id,
  pageId,
  tokenHash,
  days,
  now = Date.now(),
  createdBy = '',
}: {
  id: string
  pageId: string
  tokenHash: string
  days: number
  now?: number
  createdBy?: string
}) {
  return {
    _id: `${REVIEW_LINK_ID_PREFIX}${id}`,
    _type: 'reviewLink' as const,
    // Weak: the page may exist only as a draft. The published id: drafts share it.
    page: { _type: 'reference' as const, _ref: pageId.replace(/^drafts\./, ''), _weak: true },
    tokenHash,
    expiresAt: new Date(now + days * 86_400_000).toISOString(),
    revoked: false,
    createdBy,
  }
}

import 'server-only'

import { creditVariant } from '@/lib/analytics'
import { cleanVariant } from '@/lib/attribution-fields'
import { isDraftMode } from '@/lib/experiments/serve'
import { PRIVATE_PATH } from '@/lib/private-sections'
import { clientIpFrom } from '@/lib/security/client-ip'
import { FORM_TOKEN_MAX_AGE_MS, verifyFormTimestamp } from '@/lib/security/form-token'
import {
  FORM_TOKEN_FIELD,
  HONEYPOT_FIELD,
  MIN_FILL_MS,
  STARTED_AT_FIELD,
} from '@/lib/validations/demo-request-fields'

// What every form post the site receives shares (the demo request, a material's form): reading a
// field, the bot trap, the page a post without JavaScript came from, and the experiment's variant
// it may be credited to. docs/security.md, "Bot trap".

// Generous caps before validation, so a hostile multi-megabyte field is cut, not parsed whole.
const RAW_FIELD_CAP = 5000

/**
 * A posted field as the visitor typed it: a form post carries each line break as CRLF, which the
 * browser's own count (and the form's zod check) sees as one character, so a message at the
 * limit in paragraphs would otherwise be refused here only.
 */
export function postedText(formData: FormData, name: string): string {
  const value = formData.get(name)
  return typeof value === 'string' ? value.replace(/\r\n?/g, '\n').slice(0, RAW_FIELD_CAP) : ''
}

/**
 * The bot trap (docs/security.md, "Bot trap"). A filled honeypot is automated. So is a post
 * without the server's signed render time (lib/security/form-token.ts), or with a malformed or
 * forged one, on both paths: with JavaScript (the form's own fetch, which sends the Next-Action
 * header) and without (a plain HTML post of the prerendered form). Then the time the visitor
 * took must be at least MIN_FILL_MS: with JavaScript the time the form was shown, written when it
 * hydrated; without, the signed render time itself. A genuine token older than
 * FORM_TOKEN_MAX_AGE_MS is 'expired': not a bot's mark (a cached page can be old), but not
 * accepted either.
 */
export function botTrap(
  formData: FormData,
  withScript: boolean,
  now = Date.now(),
): 'automated' | 'expired' | 'ok' {
  if (postedText(formData, HONEYPOT_FIELD).trim() !== '') return 'automated'
  const renderedAt = verifyFormTimestamp(postedText(formData, FORM_TOKEN_FIELD))
  if (renderedAt === null) return 'automated'
  const shownAt = withScript
    ? /^\d{13}$/.test(postedText(formData, STARTED_AT_FIELD))
      ? Number(postedText(formData, STARTED_AT_FIELD))
      : null
    : renderedAt
  if (shownAt === null || now - shownAt < MIN_FILL_MS) return 'automated'
  if (now - renderedAt > FORM_TOKEN_MAX_AGE_MS) return 'expired'
  return 'ok'
}

/**
 * The page a post without JavaScript was sent from: the path of its Referer, when that names this
 * site's host (the form then has no script to say it; lib/leads/compose.ts cleans it again).
 */
export function refererPath(requestHeaders: Pick<Headers, 'get'>): string | undefined {
  const referer = requestHeaders.get('referer')
  const host = requestHeaders.get('x-forwarded-host') ?? requestHeaders.get('host')
  if (!referer || !host) return undefined
  try {
    const url = new URL(referer)
    return url.host === host ? url.pathname : undefined
  } catch {
    return undefined
  }
}

/**
 * The posted experiment variant if it is the one this request's visitor is served, by the
 * beacon's rule (lib/analytics creditVariant: running, assigned to this address and browser
 * today, its address's share), else none: a form is never refused for it, but one naming any other
 * variant, or sent from a preview or review link, counts for no variant (docs/experiments.md).
 */
export async function runningVariant(
  value: string,
  requestHeaders: Pick<Headers, 'get'>,
): Promise<string | undefined> {
  const variant = cleanVariant(value)
  if (!variant || isDraftMode(requestHeaders)) return undefined
  if (PRIVATE_PATH.test(refererPath(requestHeaders) ?? '')) return undefined
  const credited = await creditVariant({
    ip: clientIpFrom(requestHeaders),
    userAgent: requestHeaders.get('user-agent'),
    variant,
  })
  return credited ? variant : undefined
}

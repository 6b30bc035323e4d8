import 'server-only'

import { serverEnv } from '@/lib/env'
import { TURNSTILE_ACTION } from '@/lib/validations/demo-request-fields'

/** The form field the Turnstile widget writes its token into (Cloudflare's default name). */
export const TURNSTILE_RESPONSE_FIELD = 'cf-turnstile-response'

const VERIFY_TIMEOUT_MS = 5000

export type TurnstileVerdict = 'passed' | 'failed' | 'unavailable'

/** What a genuine token's siteverify answer must name: this site's host and the form's action. */
export type TurnstileExpectation = { hostname: string; action: string }

function siteExpectation(): TurnstileExpectation {
  return { hostname: new URL(serverEnv.siteUrl).hostname, action: TURNSTILE_ACTION }
}

/**
 * Asks Cloudflare's siteverify whether the widget's token is genuine, unused and for this
 * site, before anything is stored. "For this site" is checked here too: siteverify's `hostname`
 * (where the widget was solved) must be this site's (NEXT_PUBLIC_SITE_URL) and its `action` the
 * demo form's, so a token solved on another page or another site that shares the key is refused. 'failed': no token, or Cloudflare says no. 'unavailable':
 * siteverify did not answer usably in time; the visitor is asked to try again (nothing is
 * stored unverified, and nothing they typed is lost).
 * https://developers.cloudflare.com/turnstile/get-started/server-side-validation/
 */
export async function verifyTurnstileToken(
  token: string,
  ip: string,
  config = serverEnv.turnstile,
  expected: TurnstileExpectation = siteExpectation(),
): Promise<TurnstileVerdict> {
  if (!config) return 'passed'
  // Cloudflare's tokens are at most 2048 characters.
  if (!token || token.length > 2048) return 'failed'
  const body = new URLSearchParams({ secret: config.secretKey, response: token })
  if (ip !== 'unknown') body.set('remoteip', ip)
  try {
    const response = await fetch(config.verifyUrl, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    })
    if (!response.ok) {
      console.error(`[turnstile] siteverify answered HTTP ${response.status}.`)
      return 'unavailable'
    }
    const result = (await response.json()) as {
      success?: unknown
      'error-codes'?: unknown
      hostname?: unknown
      action?: unknown
    }
    if (result.success === true) {
      if (result.hostname === expected.hostname && result.action === expected.action)
        return 'passed'
      console.warn(
        `[turnstile] Refused a token solved for hostname ${JSON.stringify(result.hostname)} and action ` +
          `${JSON.stringify(result.action)}; this site expects ${JSON.stringify(expected.hostname)} and ${JSON.stringify(expected.action)}.`,
      )
      return 'failed'
    }
    const codes = Array.isArray(result['error-codes']) ? result['error-codes'].join(',') : ''
    // Our own configuration is wrong: say so, since every visitor is now refused.
    if (/invalid-input-secret|missing-input-secret/.test(codes)) {
      console.error(
        `[turnstile] siteverify refused our secret (${codes}): check TURNSTILE_SECRET_KEY.`,
      )
    }
    return 'failed'
  } catch (error) {
    console.error(`[turnstile] siteverify could not be reached: ${String(error)}`)
    return 'unavailable'
  }
}

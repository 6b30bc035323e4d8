import 'server-only'

import { serverEnv } from '@/lib/env'

/** The form field the Turnstile widget writes its token into (Cloudflare's default name). */
export const TURNSTILE_RESPONSE_FIELD = 'cf-turnstile-response'

const VERIFY_TIMEOUT_MS = 5000

export type TurnstileVerdict = 'passed' | 'failed' | 'unavailable'

/**
 * Asks Cloudflare's siteverify whether the widget's token is genuine, unused and for this
 * site, before anything is stored. 'failed': no token, or Cloudflare says no. 'unavailable':
 * siteverify did not answer usably in time; the visitor is asked to try again (nothing is
 * stored unverified, and nothing they typed is lost).
 * https://developers.cloudflare.com/turnstile/get-started/server-side-validation/
 */
export async function verifyTurnstileToken(
  token: string,
  ip: string,
  config = serverEnv.turnstile,
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
    const result = (await response.json()) as { success?: unknown; 'error-codes'?: unknown }
    if (result.success === true) return 'passed'
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

import { decodeSignatureHeader, encodeSignatureHeader } from '@sanity/webhook'

import { sameSecret } from '@/lib/security/same-secret'

/**
 * Sanity's webhook signature, checked in constant time. @sanity/webhook computes the expected
 * HMAC (HS256 over "<t>.<body>") but compares it with `!==`, whose time depends on how many
 * leading characters match; so the library computes and sameSecret compares.
 * https://www.sanity.io/docs/webhooks#verifying-webhook-requests
 */

export type SignatureCheck =
  | { valid: true; timestamp: number; hashedPayload: string }
  | { valid: false; reason: 'malformed' | 'mismatch' }

export async function checkSignature(
  body: string,
  header: string,
  secret: string,
): Promise<SignatureCheck> {
  let sent: { timestamp: number; hashedPayload: string }
  try {
    sent = decodeSignatureHeader(header)
  } catch {
    return { valid: false, reason: 'malformed' }
  }
  if (!body) return { valid: false, reason: 'mismatch' }
  const expected = decodeSignatureHeader(await encodeSignatureHeader(body, sent.timestamp, secret))
  return sameSecret(sent.hashedPayload, expected.hashedPayload)
    ? { valid: true, ...sent }
    : { valid: false, reason: 'mismatch' }
}

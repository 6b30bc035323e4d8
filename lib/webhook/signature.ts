import { timingSafeEqual } from 'node:crypto'

import { decodeSignatureHeader, encodeSignatureHeader } from '@sanity/webhook'

/**
 * Sanity's webhook signature, checked in constant time. @sanity/webhook computes the expected
 * HMAC (HS256 over "<t>.<body>") but compares it with `!==`, whose time depends on how many
 * leading characters match; so the library computes and node:crypto's timingSafeEqual compares.
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
  const a = Buffer.from(sent.hashedPayload, 'utf8')
  const b = Buffer.from(expected.hashedPayload, 'utf8')
  // timingSafeEqual needs equal lengths; a length mismatch tells nothing about the secret.
  const equal = a.length === b.length && timingSafeEqual(a, b)
  return equal ? { valid: true, ...sent } : { valid: false, reason: 'mismatch' }
}

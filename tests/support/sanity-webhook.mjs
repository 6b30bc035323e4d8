import { randomUUID } from 'node:crypto'

import { encodeSignatureHeader } from '@sanity/webhook'

/**
 * A webhook delivery as Sanity sends it (https://www.sanity.io/docs/webhooks): the JSON body,
 * its signature `t=<ms>,v1=<hmac>` made at `timestamp`, and its `idempotency-key`, one per
 * delivery and the same on every redelivery of it. Sanity signs each attempt anew, so a retry
 * has the key of the first attempt and a signature of its own; a captured request sent again
 * has both of the original's.
 * @param {unknown} body  the projection's result, or its text as sent
 * @param {string} secret
 * @param {{ idempotencyKey?: string, timestamp?: number }} [options]
 */
export async function sanityWebhook(
  body,
  secret,
  { idempotencyKey = randomUUID(), timestamp = Date.now() } = {},
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return {
    body: text,
    idempotencyKey,
    headers: {
      'content-type': 'application/json',
      'sanity-webhook-signature': await encodeSignatureHeader(text, timestamp, secret),
      'idempotency-key': idempotencyKey,
    },
  }
}

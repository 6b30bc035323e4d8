import { Webhook } from 'standardwebhooks'

import type { DeliveredLead } from './lead'
import { postJson } from './http'
import type { AttemptResult } from './retry'

// The signed webhook (Standard Webhooks, https://www.standardwebhooks.com): webhook-id is the
// lead's (or conversion's) id, the same on every retry, so a receiver that saw it already can
// drop the repeat; webhook-timestamp is the attempt's, so a receiver's 5-minute tolerance holds
// on a retry.

export const WEBHOOK_EVENT_TYPE = 'lead.created'
/**
 * A material's conversion (issue 65): another event type, so that a receiver written for demo
 * requests does not take a download for one; `data.kind` and `data.conversion.identifier` say which.
 */
export const WEBHOOK_CONVERSION_EVENT_TYPE = 'conversion.created'

/** The body: { type, timestamp, data } as the spec suggests, `data` being the lead. */
export function webhookBody(lead: DeliveredLead, now = new Date()): string {
  const type = lead.kind === 'material' ? WEBHOOK_CONVERSION_EVENT_TYPE : WEBHOOK_EVENT_TYPE
  return JSON.stringify({ type, timestamp: now.toISOString(), data: lead })
}

/** The three headers for this body, signed with the whsec_ secret. */
export function signWebhook(
  secret: string,
  id: string,
  body: string,
  now = new Date(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  }
}

export async function sendLeadWebhook(
  lead: DeliveredLead,
  options: { url: string; secret: string },
  signal?: AbortSignal,
): Promise<AttemptResult> {
  const now = new Date()
  const body = webhookBody(lead, now)
  return postJson(
    options.url,
    body,
    signWebhook(options.secret, `msg_${lead.id}`, body, now),
    signal,
  )
}

import 'server-only'

import { serverEnv } from '@/lib/env'

import { senderFor, sendLeadEmail } from './email'
import type { DeliveredLead } from './lead'
import { sendLeadConversion } from './rdstation'
import type { AttemptResult } from './retry'
import { sendLeadWebhook } from './webhook'

// Where a lead goes besides the two tables, declared once (docs/leads.md, "Adding a
// destination"): the courier (./index.ts), /api/health and the privacy policy's test loop over
// this. The database keeps no list of its own (its CHECK went in
// 20270215000000_lead_delivery_trust.sql): it queues for whichever name an instance switched on.

type Env = typeof serverEnv

export type Sender = (lead: DeliveredLead, signal: AbortSignal) => Promise<AttemptResult>

export type DestinationSpec = {
  /** Who receives the lead, as the privacy policy names them (LGPD art. 9). */
  receiver: string
  /** This instance's sender, or undefined without its settings (lib/env.ts): it sends none. */
  sender: (env: Env) => Sender | undefined
}

export const DESTINATIONS = {
  email: {
    receiver: 'caixa de e-mail da equipe comercial',
    sender: ({ leadDelivery: { email }, siteUrl }) =>
      email &&
      ((lead, signal) =>
        sendLeadEmail(
          lead,
          {
            smtpUrl: email.smtpUrl,
            to: email.to,
            from: senderFor(email.smtpUrl, siteUrl, email.from),
          },
          signal,
        )),
  },
  webhook: {
    receiver: 'webhook',
    sender: ({ leadDelivery: { webhook } }) =>
      webhook && ((lead, signal) => sendLeadWebhook(lead, webhook, signal)),
  },
  rdstation: {
    receiver: 'RD Station Marketing',
    sender: ({ leadDelivery: { rdstation } }) =>
      rdstation && ((lead, signal) => sendLeadConversion(lead, rdstation, signal)),
  },
} satisfies Record<string, DestinationSpec>

export type Destination = keyof typeof DESTINATIONS

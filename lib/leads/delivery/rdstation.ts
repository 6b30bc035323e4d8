import type { DeliveredLead } from './lead'
import { postJson } from './http'
import type { AttemptResult } from './retry'

// RD Station Marketing's conversion event (https://developers.rdstation.com/reference/conversao):
// POST /platform/conversions?api_key=<public key>, event_type CONVERSION, event_family CDP.
// A ticked WhatsApp opt-in goes as the lead's communications consent (legal_bases, the field RD
// Station has for it) and as the tag whatsapp-opt-in. An unticked one sends no legal basis: the
// visitor declined WhatsApp, not every communication, and a "declined" would stop RD's e-mails too.

/** The conversion's name in RD Station (Leads > conversions), the same for every lead. */
export const RD_CONVERSION_IDENTIFIER = 'solicitacao-demo-site'
export const RD_OPT_IN_TAG = 'whatsapp-opt-in'

export function rdConversion(lead: DeliveredLead) {
  const a = lead.attribution
  const optional = {
    company_name: lead.company || undefined,
    mobile_phone: lead.phone ?? undefined,
    traffic_source: a.utmSource ?? a.referrerHost ?? undefined,
    traffic_medium: a.utmMedium ?? undefined,
    traffic_campaign: a.utmCampaign ?? undefined,
  }
  return {
    event_type: 'CONVERSION',
    event_family: 'CDP',
    payload: {
      conversion_identifier: RD_CONVERSION_IDENTIFIER,
      email: lead.email,
      name: lead.name,
      ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
      ...(lead.whatsappOptIn
        ? {
            tags: [RD_OPT_IN_TAG],
            legal_bases: [{ category: 'communications', type: 'consent', status: 'granted' }],
          }
        : {}),
    },
  }
}

export async function sendLeadConversion(
  lead: DeliveredLead,
  options: { apiKey: string; apiUrl: string },
): Promise<AttemptResult> {
  const url = new URL('/platform/conversions', `${options.apiUrl}/`)
  url.searchParams.set('api_key', options.apiKey)
  return postJson(url.toString(), JSON.stringify(rdConversion(lead)))
}

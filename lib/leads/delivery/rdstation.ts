import type { DeliveredLead } from './lead'
import { postJson } from './http'
import type { AttemptResult } from './retry'

// RD Station Marketing's conversion event (https://developers.rdstation.com/reference/conversao):
// POST /platform/conversions?api_key=<public key>, event_type CONVERSION, event_family CDP.
// The visitor ticked one thing: "Aceito ser contatado pelo WhatsApp sobre a demonstração". It
// reaches RD only as what it is, the tag whatsapp-opt-in. No legal_bases is ever sent: RD's
// `communications` consent opens its e-mail marketing, which the visitor was never asked about
// (LGPD art. 8 §4: consent is for the purpose stated). A test holds this.

/** The conversion's name in RD Station (Leads > conversions), the same for every lead. */
export const RD_CONVERSION_IDENTIFIER = 'solicitacao-demo-site'
export const RD_OPT_IN_TAG = 'whatsapp-opt-in'

/**
 * The experiment's variant as an RD tag: 'experimento--<experiment>--<variant>' (two slugs, which
 * never hold '--' themselves, so the tag reads back unambiguously), for segmenting leads by it.
 */
export function rdVariantTag(variant: string): string {
  return `experimento--${variant.replace('/', '--')}`
}

export function rdConversion(lead: DeliveredLead) {
  const a = lead.attribution
  const optional = {
    company_name: lead.company || undefined,
    mobile_phone: lead.phone ?? undefined,
    traffic_source: a.utmSource ?? a.referrerHost ?? undefined,
    traffic_medium: a.utmMedium ?? undefined,
    traffic_campaign: a.utmCampaign ?? undefined,
  }
  const tags = [
    ...(lead.whatsappOptIn ? [RD_OPT_IN_TAG] : []),
    ...(a.variant ? [rdVariantTag(a.variant)] : []),
  ]
  return {
    event_type: 'CONVERSION',
    event_family: 'CDP',
    payload: {
      conversion_identifier: RD_CONVERSION_IDENTIFIER,
      email: lead.email,
      name: lead.name,
      ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
      ...(tags.length > 0 ? { tags } : {}),
    },
  }
}

export async function sendLeadConversion(
  lead: DeliveredLead,
  options: { apiKey: string; apiUrl: string },
  signal?: AbortSignal,
): Promise<AttemptResult> {
  const url = new URL('/platform/conversions', `${options.apiUrl}/`)
  url.searchParams.set('api_key', options.apiKey)
  return postJson(url.toString(), JSON.stringify(rdConversion(lead)), {}, signal)
}

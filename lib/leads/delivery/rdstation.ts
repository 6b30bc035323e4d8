import { FLEET_SIZE_LABELS } from '@/lib/validations/demo-request-fields'
import { SEGMENT_LABELS } from '@/lib/validations/material-request-fields'

import type { DeliveredConversion, DeliveredLead } from './lead'
import { postJson } from './http'
import type { AttemptResult } from './retry'

// RD Station Marketing's conversion event (https://developers.rdstation.com/reference/conversao):
// POST /platform/conversions?api_key=<public key>, event_type CONVERSION, event_family CDP.
// The visitor ticked one thing: "Aceito ser contatado pelo WhatsApp sobre a demonstração". It
// reaches RD only as what it is, the tag whatsapp-opt-in. No legal_bases is ever sent: RD's
// `communications` consent opens its e-mail marketing, which the visitor was never asked about
// (LGPD art. 8 §4: consent is for the purpose stated). A test holds this.
//
// A material's conversion (issue 65) is the one place consent to e-mail is asked: its own box,
// unticked by default. Only when it was ticked does RD get `legal_bases` (communications, consent,
// granted); unticked, none at all, never a 'declined' that would opt out a contact who agreed on
// another form. Its conversion_identifier is the material's, its form's extra answers go to the
// custom fields cf_cargo, cf_segmento and cf_tamanho_frota (created in RD with these API
// identifiers), and a tag names the material.

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

/** RD's tags are lower case, without spaces: 'material-<identifier>', kept to that alphabet. */
export function rdMaterialTag(identifier: string): string {
  const clean = identifier
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `material-${clean}`.slice(0, 100)
}

/** The consent RD records for its e-mail marketing, sent only with the box ticked. */
export const RD_EMAIL_CONSENT = [
  { category: 'communications', type: 'consent', status: 'granted' },
] as const

/** The material's custom fields, only those the visitor answered. */
function materialFields(lead: DeliveredConversion) {
  return {
    cf_cargo: lead.role ?? undefined,
    cf_segmento: lead.segment ? SEGMENT_LABELS[lead.segment] : undefined,
    cf_tamanho_frota: lead.fleetSize ? FLEET_SIZE_LABELS[lead.fleetSize] : undefined,
  }
}

export function rdConversion(lead: DeliveredLead) {
  const a = lead.attribution
  const optional = {
    company_name: lead.company || undefined,
    mobile_phone: lead.phone ?? undefined,
    traffic_source: a.utmSource ?? a.referrerHost ?? undefined,
    traffic_medium: a.utmMedium ?? undefined,
    traffic_campaign: a.utmCampaign ?? undefined,
    ...(lead.kind === 'material' ? materialFields(lead) : {}),
  }
  const tags = [
    ...(lead.kind === 'material' ? [rdMaterialTag(lead.conversion.identifier)] : []),
    ...(lead.kind === 'demo' && lead.whatsappOptIn ? [RD_OPT_IN_TAG] : []),
    ...(a.variant ? [rdVariantTag(a.variant)] : []),
  ]
  return {
    event_type: 'CONVERSION',
    event_family: 'CDP',
    payload: {
      conversion_identifier:
        lead.kind === 'material' ? lead.conversion.identifier : RD_CONVERSION_IDENTIFIER,
      email: lead.email,
      name: lead.name,
      ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
      ...(tags.length > 0 ? { tags } : {}),
      ...(lead.kind === 'material' && lead.emailConsent ? { legal_bases: RD_EMAIL_CONSENT } : {}),
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

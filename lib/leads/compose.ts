import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '@/sanity/lib/paths'
import { loadPhoneParser, type DemoRequest } from '@/lib/validations/demo-request'
import { FLEET_SIZE_LABELS } from '@/lib/validations/demo-request-fields'

import type { LeadRecord } from './types'

export type Attribution = {
  utm_source?: string
  utm_medium?: string
  utm_campaign?: string
  referrer?: string
}

export const ATTRIBUTION_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'referrer'] as const
// Bounded so the combined texts always fit the database policy (see the migration).
export const ATTRIBUTION_MAX_LENGTH = {
  utm_source: 100,
  utm_medium: 100,
  utm_campaign: 100,
  referrer: 200,
}

const NOT_GIVEN = 'Não informado'

/**
 * Makes visitor text safe to store and to show in the WhatsApp agent: line breaks and tabs become
 * spaces, other control characters and bidirectional overrides (which can disguise text) go.
 */
export function sanitizeText(value: string): string {
  return value
    .replace(/[\r\n\t\v\f\u0085\u2028\u2029]+/g, ' ')
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim()
}

function part(label: string, value: string | undefined): string {
  const clean = value ? sanitizeText(value) : ''
  return `${label}: ${clean || NOT_GIVEN}`
}

function originPart(attribution: Attribution | undefined, page: string | undefined): string[] {
  const pieces = [
    ...(page ? [`pagina=${page}`] : []),
    ...ATTRIBUTION_KEYS.flatMap((key) => {
      const value = sanitizeText(attribution?.[key] ?? '').slice(0, ATTRIBUTION_MAX_LENGTH[key])
      return value ? [`${key}=${value}`] : []
    }),
  ]
  return pieces.length > 0 ? [`Origem: ${pieces.join(', ')}`] : []
}

/**
 * The phone as WhatsApp writes it in these tables: country code and digits, no '+'.
 * '(11) 99999-8888' becomes '5511999998888'; an empty or unparsable phone becomes null.
 */
export async function normalizePhone(phone: string): Promise<string | null> {
  if (!phone.trim()) return null
  const parse = await loadPhoneParser()
  const parsed = parse(phone, 'BR')
  return parsed?.isValid() ? parsed.number.replace(/^\+/, '') : null
}

/** A campaign page's slug as the Studio allows it (sanity/lib/paths.ts), or undefined. */
export function leadPage(value: string | undefined): string | undefined {
  const slug = value?.trim()
  return slug && slug.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(slug) ? slug : undefined
}

/**
 * The two rows SPEC section 7 stores for one validated demo request. `page` is the slug of the
 * campaign page the form was sent from (undefined on the home page, whose rows are exactly SPEC's).
 */
export async function composeLeadRecord(
  request: DemoRequest,
  attribution?: Attribution,
  page?: string,
): Promise<LeadRecord> {
  const fleetSize = request.fleetSize ? FLEET_SIZE_LABELS[request.fleetSize] : ''
  const name = sanitizeText(request.name)
  const phone = await normalizePhone(request.phone)
  const pagina = leadPage(page)
  const origin = originPart(attribution, pagina)

  const atendimentoIa = [
    part('Empresa', request.company),
    part('Tamanho da frota', fleetSize),
    part('E-mail', request.email),
    part('Mensagem', request.message),
    ...origin,
  ].join(' | ')

  const userMessage = [
    'Solicitação de demonstração pelo site',
    part('Empresa', request.company),
    part('E-mail', request.email),
    part('Tamanho da frota', fleetSize),
    part('Mensagem', request.message),
    ...origin,
  ].join(' | ')

  return {
    dadosCliente: {
      nomewpp: name,
      telefone: phone,
      atendimento_ia: atendimentoIa,
      ...(pagina ? { pagina } : {}),
    },
    chatMessage: {
      nomewpp: name,
      phone,
      user_message: userMessage,
      message_type: 'contact_form',
    },
  }
}

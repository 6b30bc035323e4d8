import {
  FLEET_SIZE_LABELS,
  FLEET_SIZES,
  type FleetSize,
} from '@/lib/validations/demo-request-fields'

import { WHATSAPP_PART } from '../compose'

/**
 * One lead as every destination gets it, read from the dados_cliente row the database queued
 * (to_jsonb of the row, supabase/migrations/*_lead_delivery.sql). The row has the name, the phone
 * and SPEC's combined text (lib/leads/compose.ts), whose visitor values sit between « » marks the
 * visitor cannot type; the attribution columns (origem_pagina, origem_entrada, utm_*,
 * referrer_host) when the database has them, else the text's "Origem" part.
 */
export type DeliveredLead = {
  /** Stable across retries and destinations (lead_delivery.deliveries.lead_uid). */
  id: string
  /** ISO 8601. */
  createdAt: string
  name: string
  company: string
  email: string
  /** International, with '+' ('+5511999998888'); null when not given. */
  phone: string | null
  fleetSize: FleetSize | null
  message: string
  /** The savings calculator's line ("Calculadora: 120 veículos, ..."), when the visitor came from it. */
  calculator: string | null
  whatsappOptIn: boolean
  attribution: {
    /** The path the form was sent from. */
    page: string | null
    /** The path the visit landed on. */
    landingPage: string | null
    utmSource: string | null
    utmMedium: string | null
    utmCampaign: string | null
    referrerHost: string | null
  }
}

type Row = Record<string, unknown>

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null
}

/** `Label: «value»` in the combined text; '' for "Não informado". */
function quotedPart(text: string, label: string): string {
  const match = text.match(new RegExp(`\\| ${label}: «([^»]*)»`))
  return match?.[1] ?? ''
}

/** One of our own parts (no visitor text, no ' | ' inside). */
function ownPart(text: string, label: string): string | null {
  const match = text.match(new RegExp(`\\| (${label}: [^|«»]*?)(?: \\||$)`))
  return match?.[1] ?? null
}

function originValue(text: string, key: string): string | null {
  const origin = text.match(/\| Origem: (.*)$/)?.[1] ?? ''
  return str(origin.match(new RegExp(`(?:^|, )${key}=«([^»]*)»`))?.[1])
}

function hostOf(value: string | null): string | null {
  if (!value) return null
  try {
    return new URL(value).hostname || null
  } catch {
    return null
  }
}

export function leadFromRow(row: Row, id: string): DeliveredLead {
  const text = String(row.atendimento_ia ?? '')
  const fleetLabel = ownPart(text, 'Tamanho da frota')?.replace(/^Tamanho da frota: /, '')
  const fleetSize = FLEET_SIZES.find((size) => FLEET_SIZE_LABELS[size] === fleetLabel) ?? null
  const telefone = str(row.telefone)
  const pagina = str(row.pagina)
  const optIn =
    typeof row.whatsapp_opt_in === 'boolean'
      ? row.whatsapp_opt_in
      : text.includes(`| ${WHATSAPP_PART.yes}`)
  const createdAt = new Date(String(row.created_at ?? ''))
  return {
    id,
    createdAt: Number.isNaN(createdAt.getTime())
      ? new Date().toISOString()
      : createdAt.toISOString(),
    name: String(row.nomewpp ?? ''),
    company: quotedPart(text, 'Empresa'),
    email: quotedPart(text, 'E-mail'),
    phone: telefone && /^\d{8,15}$/.test(telefone) ? `+${telefone}` : null,
    fleetSize,
    message: quotedPart(text, 'Mensagem do visitante'),
    calculator: ownPart(text, 'Calculadora'),
    whatsappOptIn: optIn,
    attribution: {
      page: str(row.origem_pagina) ?? (pagina ? `/p/${pagina}` : null),
      landingPage: str(row.origem_entrada),
      utmSource: str(row.utm_source) ?? originValue(text, 'utm_source'),
      utmMedium: str(row.utm_medium) ?? originValue(text, 'utm_medium'),
      utmCampaign: str(row.utm_campaign) ?? originValue(text, 'utm_campaign'),
      referrerHost: str(row.referrer_host) ?? hostOf(originValue(text, 'referrer')),
    },
  }
}

import type { RoiEstimate } from '@/lib/roi/calculator'
import { campaignPath } from '@/sanity/lib/paths'
import { FLEET_SIZES, type FleetSize } from '@/lib/validations/demo-request-fields'

import { cleanVariant } from '@/lib/attribution-fields'

import { calculatorSummary, type LeadFormData } from '../compose'

/**
 * One lead as every destination gets it, read from the dados_cliente row the database queued
 * (to_jsonb of the row, supabase/migrations/*_lead_delivery*.sql): the name and phone columns,
 * the form's fields from `dados_formulario` (stored by the server as it validated them), the
 * opt-in from `whatsapp_opt_in` and the attribution from its columns. Nothing is read back out of
 * the composed Portuguese texts, so nothing the visitor typed can become another field.
 */
export type DeliveredLead = {
  /** Stable across retries and destinations (dados_cliente.lead_uid). */
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
  /** The savings calculator's estimate, when the visitor came from it: its figures and one line. */
  calculator: (RoiEstimate & { summary: string }) | null
  /** Ticked "Aceito ser contatado pelo WhatsApp sobre a demonstração": WhatsApp only. */
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
    /** The experiment's variant the visitor saw, '<experiment>/<variant>' (docs/experiments.md). */
    variant: string | null
  }
}

type Row = Record<string, unknown>

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** The stored estimate, if every figure is what lib/roi makes; else none (never a guess). */
function estimateOf(value: unknown): RoiEstimate | null {
  if (!value || typeof value !== 'object') return null
  const v = value as Record<string, unknown>
  const fleet = num(v.fleet)
  const incidents = num(v.incidents)
  const incidentCost = num(v.incidentCost)
  const yearlySavings = num(v.yearlySavings)
  const cost = num(v.cost)
  if (fleet === null || incidents === null || incidentCost === null) return null
  if (yearlySavings === null || cost === null) return null
  return {
    fleet,
    incidents,
    incidentsEstimated: v.incidentsEstimated === true,
    incidentCost,
    incidentCostAssumed: v.incidentCostAssumed === true,
    yearlySavings,
    cost,
    paybackMonths: num(v.paybackMonths),
    roiTwoYears: num(v.roiTwoYears),
  }
}

/**
 * A lead queued before `dados_formulario` existed (migration 20270215): the visitor's values sit
 * between « » marks they cannot type, so these three are read from there; nothing else is.
 */
function legacyQuoted(text: string, label: string): string {
  return text.match(new RegExp(`\\| ${label}: «([^»]*)»`))?.[1] ?? ''
}

function formOf(row: Row): LeadFormData {
  const stored = row.dados_formulario
  const form = (typeof stored === 'string' ? JSON.parse(stored) : stored) as unknown
  if (form && typeof form === 'object') {
    const f = form as Record<string, unknown>
    return {
      company: str(f.company) ?? '',
      email: str(f.email) ?? '',
      fleetSize: FLEET_SIZES.find((size) => size === f.fleetSize) ?? null,
      message: str(f.message) ?? '',
      calculator: estimateOf(f.calculator),
    }
  }
  const text = String(row.atendimento_ia ?? '')
  return {
    company: legacyQuoted(text, 'Empresa'),
    email: legacyQuoted(text, 'E-mail'),
    fleetSize: null,
    message: legacyQuoted(text, 'Mensagem do visitante'),
    calculator: null,
  }
}

export function leadFromRow(row: Row, id: string): DeliveredLead {
  const form = formOf(row)
  const telefone = str(row.telefone)
  const pagina = str(row.pagina)
  const createdAt = new Date(String(row.created_at ?? ''))
  return {
    id,
    createdAt: Number.isNaN(createdAt.getTime())
      ? new Date().toISOString()
      : createdAt.toISOString(),
    name: String(row.nomewpp ?? ''),
    company: form.company,
    email: form.email,
    phone: telefone && /^\d{8,15}$/.test(telefone) ? `+${telefone}` : null,
    fleetSize: form.fleetSize,
    message: form.message,
    calculator: form.calculator
      ? { ...form.calculator, summary: calculatorSummary(form.calculator) }
      : null,
    // Only a stored true is consent; a missing column is not (never read from the text).
    whatsappOptIn: row.whatsapp_opt_in === true,
    attribution: {
      page: str(row.origem_pagina) ?? (pagina ? campaignPath(pagina) : null),
      landingPage: str(row.origem_entrada),
      utmSource: str(row.utm_source),
      utmMedium: str(row.utm_medium),
      utmCampaign: str(row.utm_campaign),
      referrerHost: str(row.referrer_host),
      variant: cleanVariant(row.variant) ?? null,
    },
  }
}

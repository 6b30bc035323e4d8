import type { RoiEstimate } from '@/lib/roi/calculator'
import { campaignPath } from '@/sanity/lib/paths'
import { FLEET_SIZES, type FleetSize } from '@/lib/validations/demo-request-fields'
import { SEGMENTS, type Segment } from '@/lib/validations/material-request-fields'

import { cleanVariant } from '@/lib/attribution-fields'

import { calculatorSummary, type LeadFormData } from '../compose'

/** What a demo request and a material's conversion both carry, read from their stored columns. */
type DeliveredCommon = {
  /** Stable across retries and destinations: dados_cliente.lead_uid, conversoes_material.conversao_uid. */
  id: string
  /** ISO 8601. */
  createdAt: string
  name: string
  company: string
  email: string
  /** International, with '+' ('+5511999998888'); null when not given. */
  phone: string | null
  fleetSize: FleetSize | null
  /** '' when not given (a material's form may not ask for it). */
  message: string
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

/**
 * One demo request as every destination gets it, read from the dados_cliente row the database
 * queued (to_jsonb of the row, supabase/migrations/*_lead_delivery*.sql): the name and phone
 * columns, the form's fields from `dados_formulario` (stored by the server as it validated them),
 * the opt-in from `whatsapp_opt_in` and the attribution from its columns. Nothing is read back out
 * of the composed Portuguese texts, so nothing the visitor typed can become another field.
 */
export type DeliveredDemoLead = DeliveredCommon & {
  kind: 'demo'
  /** The savings calculator's estimate, when the visitor came from it: its figures and one line. */
  calculator: (RoiEstimate & { summary: string }) | null
  /** Ticked "Aceito ser contatado pelo WhatsApp sobre a demonstração": WhatsApp only. */
  whatsappOptIn: boolean
}

/**
 * One material's conversion (issue 65) as every destination gets it, read from the
 * conversoes_material row the database queued (supabase/migrations/*_material_deliveries.sql).
 * No WhatsApp opt-in: the material's form never asks for one.
 */
export type DeliveredConversion = DeliveredCommon & {
  kind: 'material'
  conversion: {
    /** RD Station's conversion identifier, the material's (validated by the database's policy). */
    identifier: string
    /** The material's slug. */
    material: string
    title: string
  }
  role: string | null
  segment: Segment | null
  /** Ticked the unticked box for marketing e-mail: only a stored true is consent. */
  emailConsent: boolean
}

/** What a destination is handed: a demo request or a material's conversion, told by `kind`. */
export type DeliveredLead = DeliveredDemoLead | DeliveredConversion

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

function createdAtOf(row: Row): string {
  const createdAt = new Date(String(row.created_at ?? ''))
  return Number.isNaN(createdAt.getTime()) ? new Date().toISOString() : createdAt.toISOString()
}

/** The stored digits as '+<digits>', or null: never what the visitor typed around them. */
function phoneOf(row: Row): string | null {
  const telefone = str(row.telefone)
  return telefone && /^\d{8,15}$/.test(telefone) ? `+${telefone}` : null
}

function attributionOf(row: Row, page: string | null): DeliveredCommon['attribution'] {
  return {
    page: str(row.origem_pagina) ?? page,
    landingPage: str(row.origem_entrada),
    utmSource: str(row.utm_source),
    utmMedium: str(row.utm_medium),
    utmCampaign: str(row.utm_campaign),
    referrerHost: str(row.referrer_host),
    variant: cleanVariant(row.variant) ?? null,
  }
}

export function leadFromRow(row: Row, id: string): DeliveredDemoLead {
  const form = formOf(row)
  const pagina = str(row.pagina)
  return {
    kind: 'demo',
    id,
    createdAt: createdAtOf(row),
    name: String(row.nomewpp ?? ''),
    company: form.company,
    email: form.email,
    phone: phoneOf(row),
    fleetSize: form.fleetSize,
    message: form.message,
    calculator: form.calculator
      ? { ...form.calculator, summary: calculatorSummary(form.calculator) }
      : null,
    // Only a stored true is consent; a missing column is not (never read from the text).
    whatsappOptIn: row.whatsapp_opt_in === true,
    attribution: attributionOf(row, pagina ? campaignPath(pagina) : null),
  }
}

/**
 * A material's conversion from its queued conversoes_material row: the columns the database
 * checked (slug, identifier, e-mail, phone digits) and the form's other fields from
 * `dados_formulario`, each kept only when it is what the form allows.
 */
export function conversionFromRow(row: Row, id: string): DeliveredConversion {
  const stored = row.dados_formulario
  const parsed = (typeof stored === 'string' ? JSON.parse(stored) : stored) as unknown
  const f = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>
  const material = String(row.material ?? '')
  return {
    kind: 'material',
    id,
    createdAt: createdAtOf(row),
    name: String(row.nome ?? ''),
    company: str(f.company) ?? '',
    email: str(row.email) ?? str(f.email) ?? '',
    phone: phoneOf(row),
    fleetSize: FLEET_SIZES.find((size) => size === f.fleetSize) ?? null,
    message: str(f.message) ?? '',
    conversion: {
      identifier: String(row.identificador ?? ''),
      material,
      title: str(row.titulo_material) ?? material,
    },
    role: str(f.role),
    segment: SEGMENTS.find((segment) => segment === f.segment) ?? null,
    // Only a stored true is consent; a missing or null column is not.
    emailConsent: row.consentimento_email === true,
    attribution: attributionOf(row, null),
  }
}

/** A claimed delivery's row as its destination gets it (queue.mjs tells the kind). */
export function deliveredFromRow(kind: 'demo' | 'material', row: Row, id: string): DeliveredLead {
  return kind === 'material' ? conversionFromRow(row, id) : leadFromRow(row, id)
}

import type { MaterialFormData } from '@/lib/validations/material-request-fields'

import type { RoiEstimate } from '@/lib/roi/calculator'
import type { FleetSize } from '@/lib/validations/demo-request-fields'

/**
 * A lead's attribution (supabase/migrations/*_lead_attribution.sql): the page it was sent from,
 * the visit's entry page, the first touch's UTM tags and the referrer's host. Named as agreed
 * with lead delivery (issue 46), which reads them by these names.
 */
export type LeadAttributionColumns = {
  origem_pagina?: string
  origem_entrada?: string
  utm_source?: string
  utm_medium?: string
  utm_campaign?: string
  referrer_host?: string
  /** The experiment's variant the visitor saw, '<experiment>/<variant>' (docs/experiments.md). */
  variant?: string
  /** Every analytics dimension's key, as the visit was counted (lib/analytics/measures.mjs). */
  dimensoes?: Record<string, string>
}

/** The two rows SPEC section 7 stores for one demo request (built by compose.ts). */
export type LeadRecord = {
  dadosCliente: {
    nomewpp: string
    telefone: string | null
    atendimento_ia: string
    /** The campaign page's slug; absent for the home page, whose row stays as SPEC fixes it. */
    pagina?: string
    /** Whether the visitor ticked the WhatsApp opt-in (issue 46). */
    whatsapp_opt_in?: boolean
    /** The form's fields as validated, which deliveries read (LeadFormData, below). */
    dados_formulario?: LeadFormData
    /** Digest of the form's submission key: a retry of the same submission is stored once. */
    chave_envio?: string
  } & LeadAttributionColumns
  chatMessage: {
    nomewpp: string
    phone: string | null
    user_message: string
    message_type: 'contact_form'
    /** The same digest as dados_cliente's (supabase/migrations/*_lead_request_key.sql). */
    chave_envio?: string
  }
}

/**
 * The form's fields as the server validated them, stored beside SPEC's texts in
 * `dados_cliente.dados_formulario` (supabase/migrations/*_lead_delivery_trust.sql): what each
 * delivery reads, so that no field is ever parsed back out of the texts.
 */
export type LeadFormData = {
  company: string
  email: string
  fleetSize: FleetSize | null
  message: string
  calculator: RoiEstimate | null
}

/**
 * A failed write names the step that failed and an error code safe to log: a Postgres SQLSTATE
 * or PostgREST code ('42501', 'PGRST204'...), `http_<status>` when the answer carried none, or
 * one of 'timeout', 'network', 'store_unavailable', 'unexpected'.
 */
export type LeadWriteResult =
  { ok: true } | { ok: false; step: 'dados_cliente' | 'chat_messages'; code: string }

export type LeadStep = Extract<LeadWriteResult, { ok: false }>['step']

export interface LeadStore {
  kind: 'supabase' | 'embedded'
  /** Never throws: every failure comes back as `{ ok: false }`, already logged. */
  insertLead(record: LeadRecord): Promise<LeadWriteResult>
  /** A material's conversion, one insert as anon; never throws, like insertLead. */
  insertConversion(record: MaterialConversionRecord): Promise<ConversionWriteResult>
}

/**
 * One material's conversion (issue 65) as stored in public.conversoes_material
 * (supabase/migrations/*_material_conversions.sql): never a dados_cliente row, so the WhatsApp
 * agent's tables hold demo requests only.
 */
export type MaterialConversionRecord = {
  tipo: 'material'
  /** The material's slug. */
  material: string
  /** The conversion identifier RD Station and the webhook receive (the material's, validated). */
  identificador: string
  titulo_material: string
  nome: string
  email: string
  /** International without '+'; null when not asked or not given. */
  telefone: string | null
  dados_formulario: MaterialFormData
  /** Ticked the unticked-by-default box for marketing e-mail: only then does RD get consent. */
  consentimento_email: boolean
  /** The material asks for sales to be e-mailed: only then is an 'email' delivery queued. */
  avisar_comercial: boolean
  chave_envio?: string
} & LeadAttributionColumns

export type ConversionWriteResult = { ok: true } | { ok: false; code: string }

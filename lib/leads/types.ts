import type { LeadFormData } from './compose'

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
    /** The form's fields as validated, which deliveries read (compose.ts, LeadFormData). */
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
}

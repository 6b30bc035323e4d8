'use server'

import { headers } from 'next/headers'

import { ATTRIBUTION_KEYS, composeLeadRecord, type Attribution } from '@/lib/leads/compose'
import { getLeadStore } from '@/lib/leads'
import { clientIpFrom } from '@/lib/security/client-ip'
import { takeDemoRequestToken } from '@/lib/security/rate-limit'
import { demoRequestSchema, type DemoRequestInput } from '@/lib/validations/demo-request'
import {
  DEMO_REQUEST_FIELDS,
  HONEYPOT_FIELD,
  MIN_FILL_MS,
  PAGE_FIELD,
  STARTED_AT_FIELD,
  type DemoRequestField,
  type DemoRequestState,
} from '@/lib/validations/demo-request-fields'

// Generous caps before validation, so a hostile multi-megabyte field is cut, not parsed whole.
const RAW_FIELD_CAP = 5000

function text(formData: FormData, name: string): string {
  const value = formData.get(name)
  return typeof value === 'string' ? value.slice(0, RAW_FIELD_CAP) : ''
}

function looksAutomated(formData: FormData): boolean {
  if (text(formData, HONEYPOT_FIELD).trim() !== '') return true
  const startedAt = Number(text(formData, STARTED_AT_FIELD))
  return !Number.isFinite(startedAt) || Date.now() - startedAt < MIN_FILL_MS
}

/**
 * Receives the demo-request form, from the browser's fetch or from a plain HTML post when
 * JavaScript is off, and stores it exactly as SPEC section 7 says.
 */
export async function submitDemoRequest(
  _previous: DemoRequestState,
  formData: FormData,
): Promise<DemoRequestState> {
  const values = Object.fromEntries(
    DEMO_REQUEST_FIELDS.map((field) => [field, text(formData, field)]),
  ) as DemoRequestInput

  // Bots get the same answer as people, so they learn nothing from trying.
  if (looksAutomated(formData)) return { status: 'success' }

  const parsed = await demoRequestSchema.safeParseAsync(values)
  if (!parsed.success) {
    const fieldErrors: Partial<Record<DemoRequestField, string>> = {}
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as DemoRequestField | undefined
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message
    }
    return { status: 'invalid', fieldErrors, values }
  }

  const ip = clientIpFrom(await headers())
  if (!(await takeDemoRequestToken(ip))) {
    return {
      status: 'error',
      reason: 'rate_limited',
      message:
        'Recebemos muitas solicitações em sequência. Aguarde um minuto e tente de novo, ou fale com a gente pelo WhatsApp.',
      values,
    }
  }

  const attribution = Object.fromEntries(
    ATTRIBUTION_KEYS.map((key) => [key, text(formData, key)]),
  ) as Attribution
  // The campaign page the form is on; composeLeadRecord keeps it only if it is a slug.
  const record = await composeLeadRecord(parsed.data, attribution, text(formData, PAGE_FIELD))
  const result = await getLeadStore().insertLead(record)
  if (!result.ok) {
    return {
      status: 'error',
      reason: 'store',
      message: 'Não foi possível registrar sua solicitação agora.',
      values,
    }
  }
  return { status: 'success' }
}

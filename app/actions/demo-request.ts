'use server'

import { headers } from 'next/headers'

import { conversionVisit, dimensionKeys } from '@/lib/analytics/measures.mjs'
import { botTrap, postedText, refererPath, runningVariant } from '@/lib/forms/post'
import { serverEnv } from '@/lib/env'
import { ATTRIBUTION_KEYS, composeLeadRecord, type Attribution } from '@/lib/leads/compose'
import { getLeadStore } from '@/lib/leads'
import { nudgeLeadDelivery } from '@/lib/leads/delivery'
import { getRoiCalculator } from '@/lib/content'
import { estimateRoi } from '@/lib/roi/calculator'
import { assumptionsFrom } from '@/lib/roi/content'
import { decodeHandoff } from '@/lib/roi/input'
import { clientIpFrom } from '@/lib/security/client-ip'
import { isSubmissionKey, requestKeyDigest, signFormTimestamp } from '@/lib/security/form-token'
import { checkDemoRequestLimits, type RateLimitVerdict } from '@/lib/security/rate-limit'
import { TURNSTILE_RESPONSE_FIELD, verifyTurnstileToken } from '@/lib/security/turnstile'
import { createDemoRequestSchema, parseLeadPhone } from '@/lib/validations/demo-request'
import type { DemoRequestInput } from '@/lib/validations/demo-request'
import {
  FORM_TOKEN_FIELD,
  LANDING_FIELD,
  VARIANT_FIELD,
  ORIGIN_PAGE_FIELD,
  PAGE_FIELD,
  STARTED_AT_FIELD,
  SUBMISSION_KEY_FIELD,
} from '@/lib/validations/demo-request-fields'
import {
  DEMO_REQUEST_FIELDS,
  type DemoRequestField,
  type DemoRequestState,
} from '@/lib/validations/demo-request-state'

const schema = createDemoRequestSchema(serverEnv.leadPhoneCountries)

const RATE_LIMIT_MESSAGES: Record<Exclude<RateLimitVerdict, 'ok'>, string> = {
  address:
    'Recebemos muitas solicitações em sequência. Aguarde um minuto e tente de novo, ou fale com a gente pelo WhatsApp.',
  contact:
    'Já recebemos várias solicitações com este telefone ou e-mail na última hora. Nossa equipe entrará em contato; se preferir, fale com a gente pelo WhatsApp.',
  global:
    'Estamos recebendo muitas solicitações agora. Tente de novo em alguns minutos, ou fale com a gente pelo WhatsApp.',
}

/**
 * The savings calculator's estimate for the inputs the visitor brought (already validated by the
 * schema), worked out here from the published assumptions: the request carries inputs, never
 * figures. Undefined without inputs, or if the assumptions cannot be read (the lead is still
 * stored, without the line).
 */
async function calculatorEstimate(handoff: string | undefined) {
  const inputs = handoff ? decodeHandoff(handoff) : null
  if (!inputs) return undefined
  try {
    const assumptions = assumptionsFrom(await getRoiCalculator())
    return assumptions ? estimateRoi(inputs, assumptions) : undefined
  } catch (error) {
    console.error('[leads] Could not read the calculator assumptions:', error)
    return undefined
  }
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
    DEMO_REQUEST_FIELDS.map((field) => [field, postedText(formData, field)]),
  ) as DemoRequestInput
  const requestHeaders = await headers()
  // React's fetch of a Server Action sends this header; a plain HTML form post cannot.
  const withScript = requestHeaders.has('next-action')

  // Bots get the same answer as people, so they learn nothing from trying.
  const trap = botTrap(formData, withScript)
  if (trap === 'automated') return { status: 'success' }
  if (trap === 'expired') {
    return {
      status: 'error',
      reason: 'expired',
      message:
        'Este formulário ficou aberto por muito tempo e expirou. Seus dados continuam aqui: é só enviar de novo.',
      values,
      formToken: signFormTimestamp(),
    }
  }

  const parsed = await schema.safeParseAsync(values)
  if (!parsed.success) {
    const fieldErrors: Partial<Record<DemoRequestField, string>> = {}
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as DemoRequestField | undefined
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message
    }
    return { status: 'invalid', fieldErrors, values }
  }

  const ip = clientIpFrom(requestHeaders)
  // Before anything is counted or stored: a token Cloudflare does not vouch for stops here.
  const turnstile = await verifyTurnstileToken(postedText(formData, TURNSTILE_RESPONSE_FIELD), ip)
  if (turnstile !== 'passed') {
    return {
      status: 'error',
      reason: 'verification',
      message:
        turnstile === 'failed'
          ? 'Não conseguimos confirmar que o envio veio de uma pessoa. Tente de novo, ou fale com a gente pelo WhatsApp.'
          : 'A verificação contra robôs não respondeu agora. Tente de novo em instantes, ou fale com a gente pelo WhatsApp.',
      values,
    }
  }

  const phone = await parseLeadPhone(parsed.data.phone, serverEnv.leadPhoneCountries)
  const verdict = await checkDemoRequestLimits({ ip, phone, email: parsed.data.email })
  if (verdict !== 'ok') {
    return {
      status: 'error',
      reason: 'rate_limited',
      message: RATE_LIMIT_MESSAGES[verdict],
      values,
    }
  }

  const attribution = {
    ...Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, postedText(formData, key)])),
    page: postedText(formData, ORIGIN_PAGE_FIELD) || refererPath(requestHeaders),
    landing: postedText(formData, LANDING_FIELD) || undefined,
    variant: await runningVariant(postedText(formData, VARIANT_FIELD), requestHeaders),
  } as Attribution
  // One submission, one key: a retry of it (after a time-out, say) is stored once.
  const clientKey = postedText(formData, SUBMISSION_KEY_FIELD)
  const requestKey = isSubmissionKey(clientKey)
    ? requestKeyDigest({ key: clientKey })
    : requestKeyDigest({
        token: postedText(formData, FORM_TOKEN_FIELD) || postedText(formData, STARTED_AT_FIELD),
        values: { ...values, page: postedText(formData, PAGE_FIELD) },
      })
  // The campaign page the form is on; composeLeadRecord keeps it only if it is a slug.
  const record = await composeLeadRecord(
    parsed.data,
    attribution,
    postedText(formData, PAGE_FIELD),
    {
      phoneCountries: serverEnv.leadPhoneCountries,
      requestKey,
      calculator: await calculatorEstimate(parsed.data.calculadora),
    },
  )
  record.dadosCliente.dimensoes = dimensionKeys(
    conversionVisit(record.dadosCliente, requestHeaders.get('user-agent')),
  )
  const result = await getLeadStore().insertLead(record)
  if (!result.ok) {
    return {
      status: 'error',
      reason: 'store',
      message: 'Não foi possível registrar sua solicitação agora.',
      values,
    }
  }
  // The database queued its deliveries with the lead; have them looked at now, after answering.
  nudgeLeadDelivery()
  return { status: 'success' }
}

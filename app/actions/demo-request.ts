'use server'

import { headers } from 'next/headers'

import { cleanVariant } from '@/lib/attribution-fields'
import { serverEnv } from '@/lib/env'
import { liveExperiments } from '@/lib/experiments/live'
import { ATTRIBUTION_KEYS, composeLeadRecord, type Attribution } from '@/lib/leads/compose'
import { getLeadStore } from '@/lib/leads'
import { nudgeLeadDelivery } from '@/lib/leads/delivery'
import { getRoiCalculator } from '@/lib/content'
import { estimateRoi } from '@/lib/roi/calculator'
import { assumptionsFrom } from '@/lib/roi/content'
import { decodeHandoff } from '@/lib/roi/input'
import { clientIpFrom } from '@/lib/security/client-ip'
import {
  FORM_TOKEN_MAX_AGE_MS,
  isSubmissionKey,
  requestKeyDigest,
  signFormTimestamp,
  verifyFormTimestamp,
} from '@/lib/security/form-token'
import { checkDemoRequestLimits, type RateLimitVerdict } from '@/lib/security/rate-limit'
import { TURNSTILE_RESPONSE_FIELD, verifyTurnstileToken } from '@/lib/security/turnstile'
import { createDemoRequestSchema, parseLeadPhone } from '@/lib/validations/demo-request'
import type { DemoRequestInput } from '@/lib/validations/demo-request'
import {
  DEMO_REQUEST_FIELDS,
  FORM_TOKEN_FIELD,
  HONEYPOT_FIELD,
  LANDING_FIELD,
  VARIANT_FIELD,
  MIN_FILL_MS,
  ORIGIN_PAGE_FIELD,
  PAGE_FIELD,
  STARTED_AT_FIELD,
  SUBMISSION_KEY_FIELD,
  type DemoRequestField,
  type DemoRequestState,
} from '@/lib/validations/demo-request-fields'

// Generous caps before validation, so a hostile multi-megabyte field is cut, not parsed whole.
const RAW_FIELD_CAP = 5000

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
 * The posted experiment variant if it names one running now, else none: a lead is never refused
 * for it, but one naming a variant that ended or never ran counts for no variant (docs/experiments.md).
 */
async function runningVariant(value: string): Promise<string | undefined> {
  const variant = cleanVariant(value)
  return variant && (await liveExperiments().isRunning(variant)) ? variant : undefined
}

/**
 * A posted field as the visitor typed it: a form post carries each line break as CRLF, which the
 * browser's own count (and the form's zod check) sees as one character, so a message at the
 * limit in paragraphs would otherwise be refused here only.
 */
function text(formData: FormData, name: string): string {
  const value = formData.get(name)
  return typeof value === 'string' ? value.replace(/\r\n?/g, '\n').slice(0, RAW_FIELD_CAP) : ''
}

/**
 * The bot trap (docs/security.md, "Bot trap"). A filled honeypot is automated. So is a post
 * without the server's signed render time (lib/security/form-token.ts), or with a malformed or
 * forged one, on both paths: with JavaScript (the form's own fetch, which sends the Next-Action
 * header) and without (a plain HTML post of the prerendered form). Then the time the visitor
 * took must be at least MIN_FILL_MS: with JavaScript the time the form was shown, written when it
 * hydrated; without, the signed render time itself. A genuine token older than
 * FORM_TOKEN_MAX_AGE_MS is 'expired': not a bot's mark (a cached page can be old), but not
 * accepted either.
 */
function botTrap(
  formData: FormData,
  withScript: boolean,
  now = Date.now(),
): 'automated' | 'expired' | 'ok' {
  if (text(formData, HONEYPOT_FIELD).trim() !== '') return 'automated'
  const renderedAt = verifyFormTimestamp(text(formData, FORM_TOKEN_FIELD))
  if (renderedAt === null) return 'automated'
  const shownAt = withScript
    ? /^\d{13}$/.test(text(formData, STARTED_AT_FIELD))
      ? Number(text(formData, STARTED_AT_FIELD))
      : null
    : renderedAt
  if (shownAt === null || now - shownAt < MIN_FILL_MS) return 'automated'
  if (now - renderedAt > FORM_TOKEN_MAX_AGE_MS) return 'expired'
  return 'ok'
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
 * The page a post without JavaScript was sent from: the path of its Referer, when that names this
 * site's host (the form then has no script to say it; lib/leads/compose.ts cleans it again).
 */
function refererPath(requestHeaders: Headers): string | undefined {
  const referer = requestHeaders.get('referer')
  const host = requestHeaders.get('x-forwarded-host') ?? requestHeaders.get('host')
  if (!referer || !host) return undefined
  try {
    const url = new URL(referer)
    return url.host === host ? url.pathname : undefined
  } catch {
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
    DEMO_REQUEST_FIELDS.map((field) => [field, text(formData, field)]),
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
  const turnstile = await verifyTurnstileToken(text(formData, TURNSTILE_RESPONSE_FIELD), ip)
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
    ...Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, text(formData, key)])),
    page: text(formData, ORIGIN_PAGE_FIELD) || refererPath(requestHeaders),
    landing: text(formData, LANDING_FIELD) || undefined,
    variant: await runningVariant(text(formData, VARIANT_FIELD)),
  } as Attribution
  // One submission, one key: a retry of it (after a time-out, say) is stored once.
  const clientKey = text(formData, SUBMISSION_KEY_FIELD)
  const requestKey = isSubmissionKey(clientKey)
    ? requestKeyDigest({ key: clientKey })
    : requestKeyDigest({
        token: text(formData, FORM_TOKEN_FIELD) || text(formData, STARTED_AT_FIELD),
        values: { ...values, page: text(formData, PAGE_FIELD) },
      })
  // The campaign page the form is on; composeLeadRecord keeps it only if it is a slug.
  const record = await composeLeadRecord(parsed.data, attribution, text(formData, PAGE_FIELD), {
    phoneCountries: serverEnv.leadPhoneCountries,
    requestKey,
    calculator: await calculatorEstimate(parsed.data.calculadora),
  })
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

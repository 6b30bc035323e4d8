'use server'

import { headers } from 'next/headers'

import { getLiveMaterialFresh } from '@/lib/content'
import { serverEnv } from '@/lib/env'
import { conversionVisit, dimensionKeys } from '@/lib/analytics/measures.mjs'
import { botTrap, postedText, refererPath, runningVariant } from '@/lib/forms/post'
import { getLeadStore } from '@/lib/leads'
import {
  ATTRIBUTION_KEYS,
  attributionColumns,
  sanitizeText,
  type Attribution,
} from '@/lib/leads/compose'
import { nudgeLeadDelivery } from '@/lib/leads/delivery'
import type { MaterialConversionRecord } from '@/lib/leads/types'
import { materialDownloadHref } from '@/lib/materials/download-link'
import { sendMaterialLinkEmail } from '@/lib/materials/link-email'
import { clientIpFrom } from '@/lib/security/client-ip'
import { isSubmissionKey, requestKeyDigest, signFormTimestamp } from '@/lib/security/form-token'
import { checkDemoRequestLimits, type RateLimitVerdict } from '@/lib/security/rate-limit'
import { TURNSTILE_RESPONSE_FIELD, verifyTurnstileToken } from '@/lib/security/turnstile'
import { parseLeadPhone } from '@/lib/validations/demo-request'
import {
  FORM_TOKEN_FIELD,
  LANDING_FIELD,
  ORIGIN_PAGE_FIELD,
  STARTED_AT_FIELD,
  SUBMISSION_KEY_FIELD,
  VARIANT_FIELD,
} from '@/lib/validations/demo-request-fields'
import {
  createMaterialRequestSchema,
  MATERIAL_REQUEST_FIELDS,
  type MaterialRequestField,
  type MaterialRequestInput,
} from '@/lib/validations/material-request'
import {
  EMAIL_CONSENT_VALUE,
  FLEET_SIZES,
  SEGMENTS,
  MATERIAL_SLUG_FIELD,
  type MaterialFieldChoice,
  type MaterialFormData,
  type MaterialOptionalField,
} from '@/lib/validations/material-request-fields'
import type { MaterialRequestState } from '@/lib/validations/material-request-state'
import { materialPath, SLUG_PATTERN } from '@/sanity/lib/paths'

// A material's form (issue 65, docs/leads.md "Materials"): checked against the material as it is
// published now (its fields, its window), with the demo form's protections (signed render time,
// bot trap, Turnstile, rate limits), stored as a conversion of its own kind, and answered with a
// signed download link. Whatever fails, the visitor's text comes back with the answer.

const RATE_LIMIT_MESSAGES: Record<Exclude<RateLimitVerdict, 'ok'>, string> = {
  address: 'Recebemos muitos envios em sequência. Aguarde um minuto e tente de novo.',
  contact:
    'Já recebemos vários envios com este telefone ou e-mail na última hora. Tente de novo mais tarde.',
  global: 'Estamos recebendo muitos envios agora. Tente de novo em alguns minutos.',
}

/** How long the answer waits for the link's e-mail before saying it was not sent (it goes on). */
const EMAIL_WAIT_MS = 3000

const UNAVAILABLE_MESSAGE =
  'Este material não está mais disponível. Seus dados continuam aqui; veja os outros materiais em /materiais.'

function choicesOf(formFields: unknown): MaterialFieldChoice[] {
  return Array.isArray(formFields) ? (formFields as MaterialFieldChoice[]) : []
}

/** The validated form as stored: only the fields the material asks, cleaned for storage. */
async function formData(
  data: Record<string, string | undefined>,
  choices: readonly MaterialFieldChoice[],
  phone: string | null,
): Promise<MaterialFormData> {
  const asked = new Set<MaterialOptionalField>(choices.map((choice) => choice.field))
  const clean = (value: string | undefined) => sanitizeText(value ?? '').trim()
  const form: MaterialFormData = {
    name: clean(data.name),
    email: (data.email ?? '').trim(),
    company: clean(data.company),
  }
  if (asked.has('phone') && phone) form.phone = phone
  const fleetSize = FLEET_SIZES.find((size) => size === data.fleetSize)
  if (asked.has('fleetSize') && fleetSize) form.fleetSize = fleetSize
  if (asked.has('role') && clean(data.role)) form.role = clean(data.role)
  const segment = SEGMENTS.find((value) => value === data.segment)
  if (asked.has('segment') && segment) form.segment = segment
  if (asked.has('message') && clean(data.message)) form.message = clean(data.message)
  return form
}

async function linkEmailed(send: Promise<string>): Promise<boolean> {
  const timeout = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), EMAIL_WAIT_MS))
  return (await Promise.race([send, timeout])) === 'sent'
}

export async function submitMaterialRequest(
  _previous: MaterialRequestState,
  form: FormData,
): Promise<MaterialRequestState> {
  const values = Object.fromEntries(
    MATERIAL_REQUEST_FIELDS.map((field) => [field, postedText(form, field)]),
  ) as MaterialRequestInput
  const slug = postedText(form, MATERIAL_SLUG_FIELD)
  const requestHeaders = await headers()
  const withScript = requestHeaders.has('next-action')

  const trap = botTrap(form, withScript)
  // Bots get the answer people get, so they learn nothing; the file is no secret, the lead is.
  if (trap === 'automated') {
    return SLUG_PATTERN.test(slug)
      ? {
          status: 'success',
          downloadHref: materialDownloadHref(slug),
          confirmation: 'Obrigado! Seu material está pronto.',
          title: 'Material',
          emailed: false,
        }
      : { status: 'error', reason: 'unavailable', message: UNAVAILABLE_MESSAGE, values }
  }
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

  let material: Awaited<ReturnType<typeof getLiveMaterialFresh>>
  try {
    material = await getLiveMaterialFresh(slug)
  } catch (error) {
    console.error('[materials] Could not read the material:', error)
    return {
      status: 'error',
      reason: 'store',
      message: 'Não foi possível enviar agora. Tente de novo em instantes.',
      values,
    }
  }
  if (!material?.slug || !material.title) {
    return { status: 'error', reason: 'unavailable', message: UNAVAILABLE_MESSAGE, values }
  }

  const choices = choicesOf(material.formFields)
  const parsed = await createMaterialRequestSchema(
    choices,
    serverEnv.leadPhoneCountries,
  ).safeParseAsync(values)
  if (!parsed.success) {
    const fieldErrors: Partial<Record<MaterialRequestField, string>> = {}
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as MaterialRequestField | undefined
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message
    }
    return { status: 'invalid', fieldErrors, values }
  }
  const data = parsed.data as Record<string, string | undefined>

  const ip = clientIpFrom(requestHeaders)
  const turnstile = await verifyTurnstileToken(postedText(form, TURNSTILE_RESPONSE_FIELD), ip)
  if (turnstile !== 'passed') {
    return {
      status: 'error',
      reason: 'verification',
      message:
        turnstile === 'failed'
          ? 'Não conseguimos confirmar que o envio veio de uma pessoa. Tente de novo.'
          : 'A verificação contra robôs não respondeu agora. Tente de novo em instantes.',
      values,
    }
  }

  const phone = data.phone ? await parseLeadPhone(data.phone, serverEnv.leadPhoneCountries) : null
  const email = (data.email ?? '').trim()
  const verdict = await checkDemoRequestLimits({ ip, phone, email })
  if (verdict !== 'ok') {
    return {
      status: 'error',
      reason: 'rate_limited',
      message: RATE_LIMIT_MESSAGES[verdict],
      values,
    }
  }

  const attribution = {
    ...Object.fromEntries(ATTRIBUTION_KEYS.map((key) => [key, postedText(form, key)])),
    page:
      postedText(form, ORIGIN_PAGE_FIELD) ||
      refererPath(requestHeaders) ||
      materialPath(material.slug),
    landing: postedText(form, LANDING_FIELD) || undefined,
    variant: await runningVariant(postedText(form, VARIANT_FIELD), requestHeaders),
  } as Attribution
  const clientKey = postedText(form, SUBMISSION_KEY_FIELD)
  const requestKey = isSubmissionKey(clientKey)
    ? requestKeyDigest({ key: clientKey })
    : requestKeyDigest({
        token: postedText(form, FORM_TOKEN_FIELD) || postedText(form, STARTED_AT_FIELD),
        values: { ...values, material: slug },
      })
  const stored = await formData(data, choices, phone)
  const columns = attributionColumns(attribution, undefined)
  const record: MaterialConversionRecord = {
    tipo: 'material',
    material: material.slug,
    identificador: material.conversionIdentifier ?? material.slug,
    titulo_material: material.title.slice(0, 200),
    nome: stored.name,
    email: stored.email,
    telefone: stored.phone ?? null,
    dados_formulario: stored,
    consentimento_email: data.consentimentoEmail === EMAIL_CONSENT_VALUE,
    avisar_comercial: material.notifySales === true,
    chave_envio: requestKey,
    ...columns,
    dimensoes: dimensionKeys(conversionVisit(columns, requestHeaders.get('user-agent'))),
  }
  const result = await getLeadStore().insertConversion(record)
  if (!result.ok) {
    return {
      status: 'error',
      reason: 'store',
      message: 'Não foi possível registrar seu pedido agora. Tente de novo em instantes.',
      values,
    }
  }
  nudgeLeadDelivery()

  const downloadHref = materialDownloadHref(material.slug)
  const emailed = await linkEmailed(
    sendMaterialLinkEmail({
      to: stored.email,
      name: stored.name,
      materialTitle: material.title,
      downloadUrl: new URL(downloadHref, serverEnv.siteUrl).toString(),
      ip,
    }),
  )
  return {
    status: 'success',
    downloadHref,
    confirmation: material.confirmation ?? 'Obrigado! Seu material está pronto.',
    title: material.title,
    emailed,
  }
}

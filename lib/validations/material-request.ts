import * as z from 'zod/mini'

import { createDemoRequestSchema, DEFAULT_PHONE_COUNTRIES } from './demo-request'
import { MESSAGES } from './demo-request-fields'
import {
  EMAIL_CONSENT_VALUE,
  EMPTY_MATERIAL_REQUEST,
  MATERIAL_REQUEST_FIELDS,
  type MaterialRequestField,
  type MaterialRequestInput,
  FLEET_SIZES,
  MATERIAL_LIMITS,
  SEGMENTS,
  type MaterialFieldChoice,
  type MaterialOptionalField,
} from './material-request-fields'

// The one schema of a material's form (issue 65), built from the fields the material's published
// document chooses: the form's resolver builds it from the choices the page was rendered with, and
// the Server Action again from the document as published when the post arrives, never from what
// the page says. Name, e-mail and company, and the phone's and fleet size's rules, are the demo
// request's own (./demo-request.ts), so both forms refuse the same things with the same words.

export const MATERIAL_MESSAGES = {
  phoneRequired: 'Informe seu telefone com DDD, como (11) 99999-9999.',
  fleetSizeRequired: 'Escolha o tamanho da frota.',
  roleRequired: 'Informe seu cargo.',
  roleTooLong: `O cargo pode ter no máximo ${MATERIAL_LIMITS.role} caracteres.`,
  segmentRequired: 'Escolha o segmento da sua operação.',
  segmentInvalid: 'Escolha um dos segmentos: carga, passageiros ou misto.',
  messageRequired: 'Escreva sua mensagem.',
  emailConsentInvalid: 'Marque ou desmarque a autorização para receber e-mails.',
} as const

const REQUIRED_MESSAGE: Record<MaterialOptionalField, string> = {
  phone: MATERIAL_MESSAGES.phoneRequired,
  fleetSize: MATERIAL_MESSAGES.fleetSizeRequired,
  role: MATERIAL_MESSAGES.roleRequired,
  segment: MATERIAL_MESSAGES.segmentRequired,
  message: MATERIAL_MESSAGES.messageRequired,
}

export { EMPTY_MATERIAL_REQUEST, MATERIAL_REQUEST_FIELDS }
export type { MaterialRequestField, MaterialRequestInput }

/** A required choice: blank gets its own message; anything else goes on to the field's rules. */
function requiredFirst<T extends z.ZodMiniType<string, string>>(schema: T, message: string) {
  return z.pipe(z.string().check(z.trim(), z.minLength(1, { error: message, abort: true })), schema)
}

/**
 * The schema for `choices` (the material's published `formFields`). A field the material does not
 * ask for is ignored whatever is posted in it, so it is never stored or delivered.
 */
export function createMaterialRequestSchema(
  choices: readonly MaterialFieldChoice[],
  phoneCountries: readonly string[] = DEFAULT_PHONE_COUNTRIES,
) {
  const demo = createDemoRequestSchema(phoneCountries).shape
  const optional: Record<MaterialOptionalField, z.ZodMiniType<string, string>> = {
    phone: demo.phone,
    fleetSize: z.union([z.literal(''), z.enum(FLEET_SIZES)], { error: MESSAGES.fleetSizeInvalid }),
    role: z
      .string()
      .check(z.trim(), z.maxLength(MATERIAL_LIMITS.role, MATERIAL_MESSAGES.roleTooLong)),
    segment: z.union([z.literal(''), z.enum(SEGMENTS)], {
      error: MATERIAL_MESSAGES.segmentInvalid,
    }),
    message: demo.message,
  }
  // A field left out of the post reads as blank: required, it gets its own message.
  const asked = Object.fromEntries(
    choices.map(({ field, required }) => [
      field,
      z.prefault(
        required ? requiredFirst(optional[field], REQUIRED_MESSAGE[field]) : optional[field],
        '',
      ),
    ]),
  )
  return z.object({
    name: demo.name,
    email: demo.email,
    company: demo.company,
    ...asked,
    // The unticked box for marketing e-mail: ticked sends its value, unticked nothing.
    consentimentoEmail: z.optional(
      z.union([z.literal(''), z.literal(EMAIL_CONSENT_VALUE)], {
        error: MATERIAL_MESSAGES.emailConsentInvalid,
      }),
    ),
  })
}

/** What the schema gives: the base fields, the asked ones, and the box. */
export type MaterialRequest = {
  name: string
  email: string
  company: string
  consentimentoEmail?: string
} & Partial<Record<MaterialOptionalField, string>>

import * as z from 'zod/mini'

import { decodeHandoff, HANDOFF_INVALID_MESSAGE } from '@/lib/roi/input'

import { FLEET_SIZES, LIMITS, MESSAGES, WHATSAPP_OPT_IN_VALUE } from './demo-request-fields'

// The one schema for a demo request, used by the form's resolver in the browser and again by the
// Server Action. The browser loads this module (zod/mini) only when the form is first used, and
// the phone metadata (libphonenumber-js, ~30 KB gzip) only when a phone is actually typed, so
// neither weighs on the page's first load. Constants the form renders live in
// demo-request-fields.ts, which has no dependencies.

/**
 * Loads the phone parser on first use; shared by validation and normalisation. The full ("max")
 * metadata, not "min": only it checks the digits against each country's numbering plan, so that
 * a Brazilian number needs an area code (DDD) that exists, and it tells a mobile or landline from
 * a premium-rate or toll-free number (~40 KB gzip, fetched only once a phone is typed).
 */
export function loadPhoneParser() {
  return import('libphonenumber-js/max').then((mod) => mod.parsePhoneNumberFromString)
}

/** Where a demo request's phone may be from by default: Brazil (docs/security.md, "Phones"). */
export const DEFAULT_PHONE_COUNTRIES: readonly string[] = ['BR']

// A person's or a company's line: not toll-free, premium-rate, shared-cost, pager or VoIP.
const PERSONAL_LINE_TYPES = new Set(['MOBILE', 'FIXED_LINE', 'FIXED_LINE_OR_MOBILE'])

/**
 * The phone in international form without '+' (as WhatsApp writes it: '5511999998888'), when it
 * is a valid mobile or landline of one of `countries`; null otherwise. A number without a
 * country code is read as Brazilian.
 */
export async function parseLeadPhone(
  value: string,
  countries: readonly string[] = DEFAULT_PHONE_COUNTRIES,
): Promise<string | null> {
  if (!value.trim()) return null
  const parse = await loadPhoneParser()
  const parsed = parse(value, 'BR')
  if (!parsed?.isValid() || !parsed.country || !countries.includes(parsed.country)) return null
  const type = parsed.getType()
  if (!type || !PERSONAL_LINE_TYPES.has(type)) return null
  return parsed.number.replace(/^\+/, '')
}

// A name or company must contain a letter or digit: one made only of punctuation or control
// characters would be empty once sanitised for storage.
const requiredText = (max: number, required: string, tooLong: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: required, abort: true }),
      z.regex(/[\p{L}\p{N}]/u, { error: required, abort: true }),
      z.maxLength(max, tooLong),
    )

/**
 * The schema, for the phone countries the site accepts (LEAD_PHONE_COUNTRIES, lib/env.ts; the
 * page hands the same list to the form, so the browser and the server agree).
 */
export function createDemoRequestSchema(
  phoneCountries: readonly string[] = DEFAULT_PHONE_COUNTRIES,
) {
  const onlyBrazil = phoneCountries.length === 1 && phoneCountries[0] === 'BR'
  const phoneMessage = onlyBrazil ? MESSAGES.phoneInvalid : MESSAGES.phoneInvalidInternational
  return z.object({
    name: requiredText(LIMITS.name, MESSAGES.nameRequired, MESSAGES.nameTooLong),
    email: z.string().check(
      z.trim(),
      // abort: a blank field gets only "required", not also "invalid".
      z.minLength(1, { error: MESSAGES.emailRequired, abort: true }),
      z.maxLength(LIMITS.email, { error: MESSAGES.emailTooLong, abort: true }),
      z.email(MESSAGES.emailInvalid),
    ),
    company: requiredText(LIMITS.company, MESSAGES.companyRequired, MESSAGES.companyTooLong),
    phone: z.string().check(
      z.trim(),
      z.maxLength(LIMITS.phone, { error: phoneMessage, abort: true }),
      z.refine(
        async (value) => value === '' || (await parseLeadPhone(value, phoneCountries)) !== null,
        phoneMessage,
      ),
    ),
    fleetSize: z.union([z.literal(''), z.enum(FLEET_SIZES)], { error: MESSAGES.fleetSizeInvalid }),
    message: z.string().check(z.trim(), z.maxLength(LIMITS.message, MESSAGES.messageTooLong)),
    // The savings calculator's inputs, when the visitor came from it ("frota=120&sinistros=&custo="):
    // only inputs, whole numbers in the calculator's ranges; the server works the estimate out.
    calculadora: z.optional(
      z.string().check(
        z.trim(),
        z.refine((value) => value === '' || decodeHandoff(value) !== null, HANDOFF_INVALID_MESSAGE),
      ),
    ),
    // The WhatsApp opt-in checkbox: ticked sends its value, unticked sends nothing (''): no
    // consent. Anything else is not our form's.
    whatsappOptIn: z.optional(
      z.union([z.literal(''), z.literal(WHATSAPP_OPT_IN_VALUE)], {
        error: MESSAGES.whatsappOptInInvalid,
      }),
    ),
  })
}

/** The default schema: Brazilian phones only. */
export const demoRequestSchema = createDemoRequestSchema()

export type DemoRequestInput = z.input<typeof demoRequestSchema>
export type DemoRequest = z.output<typeof demoRequestSchema>

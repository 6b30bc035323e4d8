import * as z from 'zod/mini'

import { FLEET_SIZES, LIMITS, MESSAGES } from './demo-request-fields'

// The one schema for a demo request, used by the form's resolver in the browser and again by the
// Server Action. The browser loads this module (zod/mini) only when the form is first used, and
// the phone metadata (libphonenumber-js, ~30 KB gzip) only when a phone is actually typed, so
// neither weighs on the page's first load. Constants the form renders live in
// demo-request-fields.ts, which has no dependencies.

/** Loads the phone parser on first use; shared by validation and normalisation. */
export function loadPhoneParser() {
  return import('libphonenumber-js/min').then((mod) => mod.parsePhoneNumberFromString)
}

async function isValidPhone(value: string): Promise<boolean> {
  if (value === '') return true
  const parse = await loadPhoneParser()
  return parse(value, 'BR')?.isValid() ?? false
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

export const demoRequestSchema = z.object({
  name: requiredText(LIMITS.name, MESSAGES.nameRequired, MESSAGES.nameTooLong),
  email: z.string().check(
    z.trim(),
    // abort: a blank field gets only "required", not also "invalid".
    z.minLength(1, { error: MESSAGES.emailRequired, abort: true }),
    z.maxLength(LIMITS.email, { error: MESSAGES.emailTooLong, abort: true }),
    z.email(MESSAGES.emailInvalid),
  ),
  company: requiredText(LIMITS.company, MESSAGES.companyRequired, MESSAGES.companyTooLong),
  phone: z
    .string()
    .check(
      z.trim(),
      z.maxLength(LIMITS.phone, { error: MESSAGES.phoneInvalid, abort: true }),
      z.refine(isValidPhone, MESSAGES.phoneInvalid),
    ),
  fleetSize: z.union([z.literal(''), z.enum(FLEET_SIZES)], { error: MESSAGES.fleetSizeInvalid }),
  message: z.string().check(z.trim(), z.maxLength(LIMITS.message, MESSAGES.messageTooLong)),
})

export type DemoRequestInput = z.input<typeof demoRequestSchema>
export type DemoRequest = z.output<typeof demoRequestSchema>

import * as z from 'zod/mini'

// The one schema for a demo request, used by the form's resolver in the browser and again by the
// Server Action. zod/mini keeps the browser's share small; the phone metadata
// (libphonenumber-js, ~30 KB gzip) is imported only when a phone is actually typed, so it never
// weighs on the page's first load.

export const FLEET_SIZES = ['1-10', '11-50', '51-100', '101-500', '500+'] as const
export type FleetSize = (typeof FLEET_SIZES)[number]

export const FLEET_SIZE_LABELS: Record<FleetSize, string> = {
  '1-10': '1 a 10 veículos',
  '11-50': '11 a 50 veículos',
  '51-100': '51 a 100 veículos',
  '101-500': '101 a 500 veículos',
  '500+': 'Mais de 500 veículos',
}

export const LIMITS = { name: 120, company: 120, email: 254, phone: 30, message: 2000 } as const

export const MESSAGES = {
  nameRequired: 'Informe seu nome.',
  nameTooLong: `O nome pode ter no máximo ${LIMITS.name} caracteres.`,
  emailRequired: 'Informe seu e-mail.',
  emailInvalid: 'Informe um e-mail válido, como nome@empresa.com.br.',
  emailTooLong: `O e-mail pode ter no máximo ${LIMITS.email} caracteres.`,
  companyRequired: 'Informe o nome da empresa.',
  companyTooLong: `O nome da empresa pode ter no máximo ${LIMITS.company} caracteres.`,
  phoneInvalid: 'Informe um telefone válido com DDD, como (11) 99999-9999.',
  fleetSizeInvalid: 'Escolha uma das faixas de tamanho de frota.',
  messageTooLong: `A mensagem pode ter no máximo ${LIMITS.message} caracteres.`,
} as const

/** Loads the phone parser on first use; shared by validation and normalisation. */
export function loadPhoneParser() {
  return import('libphonenumber-js/min').then((mod) => mod.parsePhoneNumberFromString)
}

async function isValidPhone(value: string): Promise<boolean> {
  if (value === '') return true
  const parse = await loadPhoneParser()
  return parse(value, 'BR')?.isValid() ?? false
}

const requiredText = (max: number, required: string, tooLong: string) =>
  z.string().check(z.trim(), z.minLength(1, { error: required, abort: true }), z.maxLength(max, tooLong))

export const demoRequestSchema = z.object({
  name: requiredText(LIMITS.name, MESSAGES.nameRequired, MESSAGES.nameTooLong),
  email: z
    .string()
    .check(
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

export const EMPTY_DEMO_REQUEST: DemoRequestInput = {
  name: '',
  email: '',
  company: '',
  phone: '',
  fleetSize: '',
  message: '',
}

export type DemoRequestField = keyof DemoRequestInput
export const DEMO_REQUEST_FIELDS = Object.keys(EMPTY_DEMO_REQUEST) as DemoRequestField[]

/** What the Server Action answers; `values` lets the form refill itself when JavaScript is off. */
export type DemoRequestState =
  | { status: 'idle' }
  | { status: 'success' }
  | {
      status: 'invalid'
      fieldErrors: Partial<Record<DemoRequestField, string>>
      values: DemoRequestInput
    }
  | { status: 'error'; reason: 'store' | 'rate_limited'; message: string; values: DemoRequestInput }

export const IDLE_STATE: DemoRequestState = { status: 'idle' }

/** Form field names the action reads besides the schema's own. */
export const HONEYPOT_FIELD = 'website'
export const STARTED_AT_FIELD = 'startedAt'
/** A person needs more than this to fill in the form; a script usually does not. */
export const MIN_FILL_MS = 2000

// Everything the form needs to render, with no dependencies, so the page's first load does not
// pull in the validation library (see demo-request.ts).

export const FLEET_SIZES = ['1-10', '11-50', '51-100', '101-500', '500+'] as const
export type FleetSize = (typeof FLEET_SIZES)[number]

export const FLEET_SIZE_LABELS: Record<FleetSize, string> = {
  '1-10': '1 a 10 veículos',
  '11-50': '11 a 50 veículos',
  '51-100': '51 a 100 veículos',
  '101-500': '101 a 500 veículos',
  '500+': 'Mais de 500 veículos',
}

/** The largest fleet in each band (the calculator picks the band of the fleet it was given). */
export const FLEET_SIZE_MAX: Record<FleetSize, number> = {
  '1-10': 10,
  '11-50': 50,
  '51-100': 100,
  '101-500': 500,
  '500+': Infinity,
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
  phoneInvalid:
    'Informe um celular ou telefone fixo do Brasil com DDD, como (11) 99999-9999. Números de outros países não são aceitos.',
  phoneInvalidInternational:
    'Informe um celular ou telefone fixo válido: do Brasil com DDD, como (11) 99999-9999, ou de outro país com + e o código do país.',
  fleetSizeInvalid: 'Escolha uma das faixas de tamanho de frota.',
  messageTooLong: `A mensagem pode ter no máximo ${LIMITS.message} caracteres.`,
  whatsappOptInInvalid: 'Marque ou desmarque a autorização de contato pelo WhatsApp.',
} as const

/** Form field names the action reads besides the schema's own. */
export const HONEYPOT_FIELD = 'website'
export const STARTED_AT_FIELD = 'startedAt'
/** The server's signed render time, for the post made without JavaScript (docs/security.md). */
export const FORM_TOKEN_FIELD = 'formToken'
/** A random key made when the form is shown: a retry of one submission is stored once. */
export const SUBMISSION_KEY_FIELD = 'chaveEnvio'
/** The campaign page the form is on (its slug), absent on the home page. */
export const PAGE_FIELD = 'pagina'
/** The path the form is sent from, and the visit's entry page (docs/analytics.md, "Leads"). */
export const ORIGIN_PAGE_FIELD = 'origem_pagina'
export const LANDING_FIELD = 'origem_entrada'
/**
 * The experiment's variant the lead is credited to ('<experiment>/<variant>'). Outside the schema
 * like the fields above: a stale or forged one is no mistake the visitor could fix, so it is
 * dropped (the lead is kept without it), never an error on the form.
 */
export const VARIANT_FIELD = 'variante'
/**
 * The Turnstile widget's action (at most 32 characters): the widget is rendered with it, and the
 * server accepts only a token whose siteverify answer names it (lib/security/turnstile.ts).
 */
export const TURNSTILE_ACTION = 'demo-request'
/** The savings calculator's inputs, when the visitor came from it (lib/roi/input.ts). */
export const CALCULATOR_FIELD = 'calculadora'
/** The WhatsApp opt-in checkbox's value when ticked (unticked, the form sends nothing). */
export const WHATSAPP_OPT_IN_VALUE = 'sim'
/** Its label: what the visitor agrees to, in their words (WhatsApp's Business Messaging Policy). */
export const WHATSAPP_OPT_IN_LABEL =
  'Aceito ser contatado pelo WhatsApp sobre a demonstração, no telefone informado.'
/** A person needs more than this to fill in the form; a script usually does not. */
export const MIN_FILL_MS = 2000
/**
 * Past this the visitor is told it failed (SPEC section 8) rather than left waiting on a weak
 * signal; what they typed stays in the form.
 */
export const SUBMIT_TIMEOUT_MS = 10_000

import { FLEET_SIZES, LIMITS, type FleetSize } from './demo-request-fields'

// The catalogue of fields a material's form may ask for (issue 65): the Studio offers these and no
// others, so validation, delivery and the privacy policy stay exact. Name, e-mail and company are
// always asked; each optional one is chosen per material, required or not. No dependencies, like
// demo-request-fields.ts: the page renders from this without loading zod.

export const SEGMENTS = ['carga', 'passageiros', 'misto'] as const
export type Segment = (typeof SEGMENTS)[number]

export const SEGMENT_LABELS: Record<Segment, string> = {
  carga: 'Transporte de carga',
  passageiros: 'Transporte de passageiros',
  misto: 'Carga e passageiros',
}

export { FLEET_SIZES, type FleetSize }

export const MATERIAL_LIMITS = { ...LIMITS, role: 100 } as const

/** The fields always asked, in the order the form shows them. */
export const MATERIAL_BASE_FIELDS = ['name', 'email', 'company'] as const
/** The fields a material may add (the Studio's list), in the order the form shows them. */
export const MATERIAL_OPTIONAL_FIELDS = [
  'phone',
  'fleetSize',
  'role',
  'segment',
  'message',
] as const
export type MaterialOptionalField = (typeof MATERIAL_OPTIONAL_FIELDS)[number]
export type MaterialField = (typeof MATERIAL_BASE_FIELDS)[number] | MaterialOptionalField

/** The Studio's names for the optional fields. */
export const MATERIAL_FIELD_TITLES: Record<MaterialOptionalField, string> = {
  phone: 'Telefone / WhatsApp',
  fleetSize: 'Tamanho da frota',
  role: 'Cargo',
  segment: 'Segmento (carga / passageiros / misto)',
  message: 'Mensagem',
}

/** One optional field as a material's published document chooses it. */
export type MaterialFieldChoice = { field: MaterialOptionalField; required: boolean }

/** The form as the server validated it: what is stored (dados_formulario) and delivered. */
export type MaterialFormData = {
  name: string
  email: string
  company: string
  /** International without '+', as dados_cliente.telefone; absent when not asked or not given. */
  phone?: string
  fleetSize?: FleetSize
  role?: string
  segment?: Segment
  message?: string
}

/** The box asking for marketing e-mail, unticked by default: its value when ticked. */
export const EMAIL_CONSENT_VALUE = 'sim'
export const EMAIL_CONSENT_FIELD = 'consentimentoEmail'
/** Its label: the one thing the visitor agrees to by ticking it. */
export const EMAIL_CONSENT_LABEL =
  'Aceito receber e-mails da Vigia com conteúdos e novidades sobre segurança de frotas. Posso cancelar quando quiser.'
/** The material's slug, posted with the form: the server reads its published definition. */
export const MATERIAL_SLUG_FIELD = 'material'

/** Every field a material's form may post, empty: the form's defaults and the action's reading. */
export const EMPTY_MATERIAL_REQUEST = {
  name: '',
  email: '',
  company: '',
  phone: '',
  fleetSize: '',
  role: '',
  segment: '',
  message: '',
  consentimentoEmail: '',
}

export type MaterialRequestInput = typeof EMPTY_MATERIAL_REQUEST
export type MaterialRequestField = keyof MaterialRequestInput
export const MATERIAL_REQUEST_FIELDS = Object.keys(EMPTY_MATERIAL_REQUEST) as MaterialRequestField[]

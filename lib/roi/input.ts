// What the visitor types into the calculator, read the same way by the island, by the
// no-JavaScript route (/calculadora) and by the demo request's schema (the inputs travel with the
// request as one field, `calculadora`). Every bad value gets a message in Portuguese; nothing
// reaches the arithmetic as NaN, Infinity or a negative number.
import { ROI_LIMITS, type RoiInputs } from './calculator'

export const CALCULATOR_FIELDS = ['frota', 'sinistros', 'custo'] as const
export type CalculatorField = (typeof CALCULATOR_FIELDS)[number]
export type CalculatorErrors = Partial<Record<CalculatorField, string>>
export type CalculatorValues = Record<CalculatorField, string>

export type ParsedCalculator =
  { ok: true; inputs: RoiInputs } | { ok: false; errors: CalculatorErrors }

const thousands = new Intl.NumberFormat('pt-BR')

type Rule = {
  min: number
  max: number
  required: boolean
  messages: {
    required?: string
    notANumber: string
    decimal: string
    tooSmall: string
    tooLarge: string
  }
}

const RULES: Record<CalculatorField, Rule> = {
  frota: {
    ...ROI_LIMITS.fleet,
    required: true,
    messages: {
      required: 'Informe quantos veículos tem a frota.',
      notANumber: 'Informe o número de veículos só com algarismos, como 120.',
      decimal: 'Informe um número inteiro de veículos, como 120.',
      tooSmall: 'A frota precisa ter pelo menos 1 veículo.',
      tooLarge: `A calculadora vai até ${thousands.format(ROI_LIMITS.fleet.max)} veículos. Para uma frota maior, fale com a gente.`,
    },
  },
  sinistros: {
    ...ROI_LIMITS.incidents,
    required: false,
    messages: {
      notANumber: 'Informe os sinistros por ano só com algarismos, como 12, ou deixe em branco.',
      decimal: 'Informe um número inteiro de sinistros por ano, ou deixe em branco.',
      tooSmall: 'O número de sinistros não pode ser negativo.',
      tooLarge: `Informe no máximo ${thousands.format(ROI_LIMITS.incidents.max)} sinistros por ano.`,
    },
  },
  custo: {
    ...ROI_LIMITS.incidentCost,
    required: false,
    messages: {
      notANumber: 'Informe o custo em reais só com algarismos, como 25.000, ou deixe em branco.',
      decimal: 'Informe o custo em reais inteiros, sem centavos.',
      tooSmall: 'O custo não pode ser negativo.',
      tooLarge: `Informe no máximo R$ ${thousands.format(ROI_LIMITS.incidentCost.max)} por sinistro.`,
    },
  },
}

/**
 * A whole number as a Brazilian writes it: "120", "25.000", "25 000", "R$ 25.000", "25.000,00".
 * Returns the number, or which problem it has.
 */
function readWholeNumber(raw: string): number | 'empty' | 'nan' | 'decimal' | 'negative' {
  const text = raw
    .replace(/[\s\u00a0\u202f]+/g, '')
    .replace(/^R\$/i, '')
    .slice(0, 200)
  if (text === '') return 'empty'
  const negative = /^[-−]/.test(text)
  const body = text.replace(/^[-−+]/, '')
  // Dots group thousands ("25.000"); a comma starts the decimals ("25.000,00").
  const match = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?$/.exec(body)
  if (!match) return /^\d*[.,]\d+$/.test(body) ? 'decimal' : 'nan'
  if (match[2] && /[1-9]/.test(match[2])) return 'decimal'
  if (negative) return Number(match[1]!.replace(/\./g, '')) === 0 ? 0 : 'negative'
  return Number(match[1]!.replace(/\./g, ''))
}

function readField(field: CalculatorField, raw: string): number | null | { error: string } {
  const rule = RULES[field]
  const value = readWholeNumber(raw)
  if (value === 'empty')
    return rule.required ? { error: rule.messages.required ?? rule.messages.notANumber } : null
  if (value === 'nan') return { error: rule.messages.notANumber }
  if (value === 'decimal') return { error: rule.messages.decimal }
  if (value === 'negative' || value < rule.min) return { error: rule.messages.tooSmall }
  if (value > rule.max) return { error: rule.messages.tooLarge }
  return value
}

/** Reads the three fields (from a form, a query string or the values typed). */
export function parseCalculator(
  values: Partial<Record<CalculatorField, string | null | undefined>>,
): ParsedCalculator {
  const errors: CalculatorErrors = {}
  const read: Partial<Record<CalculatorField, number | null>> = {}
  for (const field of CALCULATOR_FIELDS) {
    const result = readField(field, values[field] ?? '')
    if (result !== null && typeof result === 'object') errors[field] = result.error
    else read[field] = result
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return {
    ok: true,
    inputs: {
      fleet: read.frota!,
      incidents: read.sinistros ?? null,
      incidentCost: read.custo ?? null,
    },
  }
}

/** The fields of a URLSearchParams or FormData, as strings. */
export function calculatorValuesFrom(source: {
  get(name: string): FormDataEntryValue | null
}): CalculatorValues {
  const value = (name: string) => {
    const entry = source.get(name)
    return typeof entry === 'string' ? entry.slice(0, 200) : ''
  }
  return { frota: value('frota'), sinistros: value('sinistros'), custo: value('custo') }
}

/** The inputs as the form shows them back: "120", "" for a blank, "25000". */
export function calculatorValues(inputs: RoiInputs): CalculatorValues {
  return {
    frota: String(inputs.fleet),
    sinistros: inputs.incidents === null ? '' : String(inputs.incidents),
    custo: inputs.incidentCost === null ? '' : String(inputs.incidentCost),
  }
}

/** Longest handoff the demo request accepts (three fields of a few digits each). */
export const HANDOFF_MAX_LENGTH = 60

/**
 * The inputs as they travel to the demo form and with the request (field `calculadora`):
 * "frota=120&sinistros=&custo=25000". Only the inputs: the server works the estimate out again
 * from the assumptions, so a request cannot bring figures of its own.
 */
export function encodeHandoff(inputs: RoiInputs): string {
  return new URLSearchParams(calculatorValues(inputs)).toString()
}

/** The inputs of a handoff string, or null when it is not one encodeHandoff could have made. */
export function decodeHandoff(value: string): RoiInputs | null {
  if (value.length > HANDOFF_MAX_LENGTH || !/^[a-z0-9=&]*$/.test(value)) return null
  const params = new URLSearchParams(value)
  if ([...params.keys()].some((key) => !(CALCULATOR_FIELDS as readonly string[]).includes(key)))
    return null
  const parsed = parseCalculator(calculatorValuesFrom(params))
  return parsed.ok ? parsed.inputs : null
}

/** The message the demo form shows for a handoff that does not read (a tampered field). */
export const HANDOFF_INVALID_MESSAGE =
  'Os números da calculadora não chegaram certos. Refaça a simulação ou remova-a do pedido.'

/** What the demo form says it will send along: "120 veículos, 24 sinistros por ano, ...". */
export function describeInputs(inputs: RoiInputs): string {
  const fleet = `${thousands.format(inputs.fleet)} ${inputs.fleet === 1 ? 'veículo' : 'veículos'}`
  const incidents =
    inputs.incidents === null
      ? 'sinistros por ano estimados pela calculadora'
      : `${thousands.format(inputs.incidents)} sinistros por ano`
  const cost =
    inputs.incidentCost === null
      ? 'custo médio por sinistro da calculadora'
      : `custo médio de R$ ${thousands.format(inputs.incidentCost)} por sinistro`
  return `${fleet}, ${incidents}, ${cost}`
}

import { defineField, defineType, type ValidationContext } from 'sanity'

import { claimDisagreements } from '../../lib/roi/claims'
import { assumptionsFrom } from '../../lib/roi/content'
import { apiVersion } from '../env'
import type { RoiCalculator } from '../types'
import { requiredString } from './objects'

/** The calculator's one document id (the site's query and the Studio's structure use it). */
export const ROI_CALCULATOR_ID = 'roiCalculator'

/** What an assumption without a source must say instead (docs/content.md). */
export const UNSOURCED_NOTE = 'Exemplo a confirmar com a equipe de produto.'

/** One assumption: its value, and where it comes from (or that it is an example to confirm). */
const assumptionField = (
  name: string,
  title: string,
  description: string,
  { min, max, integer = false }: { min: number; max: number; integer?: boolean },
) =>
  defineField({
    name,
    title,
    description,
    type: 'object',
    options: { columns: 1 },
    validation: (rule) => rule.required(),
    fields: [
      defineField({
        name: 'value',
        title: 'Valor',
        type: 'number',
        validation: (rule) => {
          const bounded = rule.required().min(min).max(max)
          return integer ? bounded.integer() : bounded
        },
      }),
      defineField({
        name: 'note',
        title: 'Fonte ou nota',
        description: `De onde vem o número (estudo, contrato, piloto), mostrado em "Como calculamos". Sem fonte, escreva "${UNSOURCED_NOTE}"`,
        type: 'text',
        rows: 2,
        validation: (rule) => rule.required().min(10).max(240),
      }),
    ],
  })

/** The calculator as the Studio edits it, or as the warning's query reads it (the same fields). */
type CalculatorDocument = Partial<RoiCalculator>

const CLAIM_FIELDS = ['savingsClaim', 'paybackClaim', 'roiClaim'] as const
const CLAIM_KEYS = { savingsClaim: 'savings', paybackClaim: 'payback', roiClaim: 'roi' } as const

/**
 * The disagreements between the calculator's assumptions and the three ROI claims, as the
 * editor's warning; `edited` replaces a claim's published value with the one being edited (the
 * claim's own warning). Reads the other documents with the Studio's client.
 */
export async function roiClaimsWarning(
  context: ValidationContext,
  calculator: CalculatorDocument | undefined,
  edited?: { id: string; value: string | undefined },
): Promise<true | string> {
  const client = context.getClient({ apiVersion })
  const doc =
    calculator ??
    ((await client.fetch(
      `*[_id == $id][0]{referenceFleet, savingsClaim, paybackClaim, roiClaim, costPerVehicle, incidentsPerVehicle, incidentCost, avoidedPercent}`,
      { id: ROI_CALCULATOR_ID },
      { tag: 'validation.roi-calculator' },
    )) as CalculatorDocument | null)
  const assumptions = assumptionsFrom(doc)
  if (!doc || !assumptions || !doc.referenceFleet) return true
  const ids = CLAIM_FIELDS.map((field) => doc[field]?._ref).filter((id): id is string => !!id)
  if (edited && !ids.includes(edited.id)) return true
  const values = (await client.fetch(
    `*[_id in $ids]{_id, value}`,
    { ids },
    { tag: 'validation.roi-claims' },
  )) as Array<{ _id: string; value?: string }>
  const valueOf = (id: string | undefined) =>
    id === edited?.id ? edited?.value : values.find((claim) => claim._id === id)?.value
  const claims = Object.fromEntries(
    CLAIM_FIELDS.map((field) => [CLAIM_KEYS[field], valueOf(doc[field]?._ref)]),
  )
  const problems = claimDisagreements(assumptions, doc.referenceFleet, claims)
  return problems.length === 0
    ? true
    : `A calculadora e os números de ROI não batem: ${problems.join(' ')} Ajuste as premissas ou os números antes de publicar.`
}

const claimReference = (name: string, title: string, description: string) =>
  defineField({
    name,
    title,
    description,
    type: 'reference',
    to: [{ type: 'claim' }],
    validation: (rule) => rule.required(),
  })

// The savings calculator (home page's ROI block, campaign pages' "Calculadora de economia"
// block): one document whose assumptions marketing edits, each with its source. With them, the
// reference fleet must give exactly the three ROI claims; the Studio warns when it does not.
export const roiCalculatorType = defineType({
  name: 'roiCalculator',
  title: 'Premissas da calculadora de economia',
  type: 'document',
  description:
    'As premissas da calculadora do bloco de ROI. Cada premissa tem a sua fonte; sem fonte, diga que é um exemplo a confirmar com a equipe de produto.',
  validation: (rule) =>
    rule
      .custom((document, context) =>
        roiClaimsWarning(context, document as CalculatorDocument | undefined),
      )
      .warning(),
  fields: [
    requiredString('title', 'Título da calculadora', 70),
    defineField({
      name: 'intro',
      title: 'Texto de apoio (opcional)',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.max(240),
    }),
    defineField({
      name: 'disclaimer',
      title: 'Aviso sob os resultados (opcional)',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.max(240),
    }),
    defineField({
      name: 'referenceFleet',
      title: 'Frota dos números de marketing (veículos)',
      description:
        'A frota para a qual valem os números de economia, payback e ROI abaixo (por exemplo 50). A calculadora abre com ela.',
      type: 'number',
      validation: (rule) => rule.required().integer().min(1).max(100_000),
    }),
    claimReference(
      'savingsClaim',
      'Número de economia anual',
      'Por exemplo "R$ 150 mil". Com as premissas, a frota acima precisa dar exatamente este valor.',
    ),
    claimReference('paybackClaim', 'Número de payback', 'Por exemplo "6 meses".'),
    claimReference('roiClaim', 'Número de ROI em 2 anos', 'Por exemplo "300%".'),
    assumptionField(
      'costPerVehicle',
      'Investimento por veículo (R$)',
      'Pago uma vez, no início. O payback e o ROI comparam a economia com este custo.',
      { min: 1, max: 1_000_000, integer: true },
    ),
    assumptionField(
      'incidentsPerVehicle',
      'Sinistros por veículo por ano',
      'Usado quando o visitante não informa os sinistros da frota: frota × este número.',
      { min: 0, max: 10 },
    ),
    assumptionField(
      'incidentCost',
      'Custo médio de um sinistro (R$)',
      'Usado quando o visitante não informa o custo: reparo, franquia, veículo parado, equipe.',
      { min: 0, max: 5_000_000, integer: true },
    ),
    assumptionField(
      'avoidedPercent',
      'Sinistros evitados com a Vigia (%)',
      'A parte dos sinistros que deixa de acontecer. De 0 a 100.',
      { min: 0, max: 100 },
    ),
  ],
  preview: { prepare: () => ({ title: 'Premissas da calculadora de economia' }) },
})

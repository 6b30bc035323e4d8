// The calculator's Studio document as the arithmetic needs it.
import type { ROI_CALCULATOR_QUERY_RESULT, RoiCalculator } from '../../sanity/types'

import type { RoiAssumptions } from './calculator'

type AssumptionField = 'costPerVehicle' | 'incidentsPerVehicle' | 'incidentCost' | 'avoidedPercent'

/** The four assumptions as the site's query gives them, or as the Studio edits the document. */
export type RoiAssumptionFields =
  | Pick<NonNullable<ROI_CALCULATOR_QUERY_RESULT>, AssumptionField>
  | Pick<RoiCalculator, AssumptionField>

type Assumption = RoiAssumptionFields[AssumptionField]

const finite = (assumption: Assumption): number | null =>
  typeof assumption?.value === 'number' &&
  Number.isFinite(assumption.value) &&
  assumption.value >= 0
    ? assumption.value
    : null

/**
 * The assumptions, or null when one is missing or not a number (then the page shows the claims
 * without a calculator rather than an estimate built on a hole).
 */
export function assumptionsFrom(
  content: RoiAssumptionFields | null | undefined,
): RoiAssumptions | null {
  if (!content) return null
  const costPerVehicle = finite(content.costPerVehicle)
  const incidentsPerVehicle = finite(content.incidentsPerVehicle)
  const incidentCost = finite(content.incidentCost)
  const avoidedPercent = finite(content.avoidedPercent)
  if (
    costPerVehicle === null ||
    incidentsPerVehicle === null ||
    incidentCost === null ||
    avoidedPercent === null ||
    avoidedPercent > 100
  )
    return null
  return { costPerVehicle, incidentsPerVehicle, incidentCost, avoidedPercent }
}

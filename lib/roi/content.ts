// The calculator's Studio document as the arithmetic needs it.
import type { RoiAssumptions } from './calculator'

type Assumption = { value?: number | null; note?: string | null } | null | undefined

export type RoiCalculatorContent = {
  costPerVehicle?: Assumption
  incidentsPerVehicle?: Assumption
  incidentCost?: Assumption
  avoidedPercent?: Assumption
}

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
  content: RoiCalculatorContent | null | undefined,
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

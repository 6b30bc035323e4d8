// The fleet savings calculator's arithmetic: pure, no I/O, the same on the server (the page, the
// no-JavaScript route /calculadora, the demo request's stored line) and in the browser (the
// island). The assumptions are content (Studio: Premissas da calculadora de economia); what the
// visitor types is checked first (lib/roi/input.ts). docs/content.md, "The savings calculator".

import { FLEET_SIZE_MAX, FLEET_SIZES, type FleetSize } from '@/lib/validations/demo-request-fields'

/** The assumptions, in the units the arithmetic uses. */
export type RoiAssumptions = {
  /** What the service costs per vehicle, paid once at the start, in reais. */
  costPerVehicle: number
  /** Incidents (sinistros) per vehicle per year, used when the visitor leaves theirs blank. */
  incidentsPerVehicle: number
  /** The average cost of one incident in reais, used when the visitor leaves it blank. */
  incidentCost: number
  /** The share of incidents avoided, in percent (0 to 100). */
  avoidedPercent: number
}

/** The ranges the calculator accepts, stated to the visitor (lib/roi/input.ts). */
export const ROI_LIMITS = {
  fleet: { min: 1, max: 100_000 },
  incidents: { min: 0, max: 100_000 },
  incidentCost: { min: 0, max: 5_000_000 },
} as const

/** What the visitor gives: the fleet size, and optionally their own incidents and cost. */
export type RoiInputs = {
  fleet: number
  /** Incidents a year across the fleet; null: estimated from the fleet size. */
  incidents: number | null
  /** Average cost of one incident in reais; null: the assumption. */
  incidentCost: number | null
}

export type RoiEstimate = {
  fleet: number
  /** Incidents a year used in the estimate (the visitor's, or fleet × the assumption). */
  incidents: number
  incidentsEstimated: boolean
  incidentCost: number
  incidentCostAssumed: boolean
  /** Savings a year in whole reais, never negative. */
  yearlySavings: number
  /** The cost of the service for this fleet, paid at the start, in whole reais. */
  cost: number
  /** Months until the savings pay the cost; null when there are no savings. */
  paybackMonths: number | null
  /**
   * Net return after 2 years as a fraction of the cost (3 = 300%): (2 × savings − cost) ÷ cost.
   * null when it would be negative (the cost is not recovered in 2 years) or there is no cost.
   */
  roiTwoYears: number | null
}

/** A finite number within [min, max]; anything else (NaN, ±Infinity) becomes min. */
function within(value: number, min: number, max: number): number {
  if (!Number.isFinite(value)) return min
  return Math.min(max, Math.max(min, value))
}

/**
 * The estimate for a fleet. Inputs outside the stated ranges are clamped to them (the form has
 * already said so in Portuguese), so no input gives NaN, Infinity or a negative amount.
 */
export function estimateRoi(inputs: RoiInputs, assumptions: RoiAssumptions): RoiEstimate {
  const fleet = Math.round(within(inputs.fleet, ROI_LIMITS.fleet.min, ROI_LIMITS.fleet.max))
  const perVehicle = within(assumptions.incidentsPerVehicle, 0, 1000)
  const incidentsEstimated = inputs.incidents === null
  const incidents =
    inputs.incidents === null
      ? fleet * perVehicle
      : within(inputs.incidents, ROI_LIMITS.incidents.min, ROI_LIMITS.incidents.max)
  const incidentCostAssumed = inputs.incidentCost === null
  const incidentCost = within(
    inputs.incidentCost ?? assumptions.incidentCost,
    ROI_LIMITS.incidentCost.min,
    ROI_LIMITS.incidentCost.max,
  )
  const percent = within(assumptions.avoidedPercent, 0, 100)
  const yearlySavings = Math.round((incidents * incidentCost * percent) / 100)
  const cost = Math.round(fleet * within(assumptions.costPerVehicle, 0, 10_000_000))
  const paybackMonths = yearlySavings > 0 ? (cost * 12) / yearlySavings : null
  const net = 2 * yearlySavings - cost
  const roiTwoYears = cost > 0 && net >= 0 ? net / cost : null
  return {
    fleet,
    incidents,
    incidentsEstimated,
    incidentCost,
    incidentCostAssumed,
    yearlySavings,
    cost,
    paybackMonths,
    roiTwoYears,
  }
}

/** The demo form's fleet band (SPEC section 3) for a fleet size: 120 → "101-500". */
export function fleetBand(fleet: number): FleetSize {
  return FLEET_SIZES.find((size) => fleet <= FLEET_SIZE_MAX[size]) ?? '500+'
}

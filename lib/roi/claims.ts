// Whether the calculator's assumptions and the page's ROI claims tell the same story: with the
// assumptions, the reference fleet (50 vehicles) must give exactly the yearly savings, payback
// and 2-year ROI the claim documents print ("R$ 150 mil", "6 meses", "300%"). Used by a unit test
// over the bundled dataset and by the Studio, which warns the editor (sanity/schema-types/
// roi-calculator.ts). Pure: no I/O.
import { estimateRoi, type RoiAssumptions } from './calculator'
import { formatMonths, formatReais, formatRoi, plainSpaces } from './format'

const MULTIPLIERS: Record<string, number> = { mil: 1e3, mi: 1e6, milhão: 1e6, milhões: 1e6 }

/** "R$ 150 mil" → 150000, "R$ 1,2 mi" → 1200000, "R$ 150.000" → 150000; null if unreadable. */
export function parseClaimReais(value: string): number | null {
  const match =
    /^R\$\s*(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?\s*(mil|mi|milhão|milhões)?\s*\+?$/i.exec(
      plainSpaces(value).trim(),
    )
  if (!match) return null
  const number = Number(`${match[1]!.replace(/\./g, '')}.${match[2] ?? '0'}`)
  return Math.round(number * (match[3] ? MULTIPLIERS[match[3].toLowerCase()]! : 1))
}

/** "6 meses" → 6, "1 mês" → 1; null if unreadable. */
export function parseClaimMonths(value: string): number | null {
  const match = /^(\d+)\s*(meses|mês)$/i.exec(plainSpaces(value).trim())
  return match ? Number(match[1]) : null
}

/** "300%" → 3; null if unreadable. */
export function parseClaimPercent(value: string): number | null {
  const match = /^(\d+(?:,\d+)?)\s*%$/.exec(plainSpaces(value).trim())
  return match ? Number(match[1]!.replace(',', '.')) / 100 : null
}

export type RoiClaims = {
  savings?: string | null
  payback?: string | null
  roi?: string | null
}

/**
 * What disagrees, in Portuguese for the editor; empty when the claims and the assumptions agree
 * (or a claim is not chosen, which the Studio's required rules report on their own).
 */
export function claimDisagreements(
  assumptions: RoiAssumptions,
  referenceFleet: number,
  claims: RoiClaims,
): string[] {
  const estimate = estimateRoi(
    { fleet: referenceFleet, incidents: null, incidentCost: null },
    assumptions,
  )
  const fleet = `${referenceFleet} veículos`
  const problems: string[] = []
  if (claims.savings) {
    const claimed = parseClaimReais(claims.savings)
    if (claimed === null)
      problems.push(
        `Não foi possível ler o valor de economia "${claims.savings}" (use "R$ 150 mil").`,
      )
    else if (claimed !== estimate.yearlySavings)
      problems.push(
        `Com estas premissas, ${fleet} economizam ${plainSpaces(formatReais(estimate.yearlySavings))} por ano, mas o número de marketing diz ${claims.savings}.`,
      )
  }
  if (claims.payback) {
    const claimed = parseClaimMonths(claims.payback)
    if (claimed === null)
      problems.push(`Não foi possível ler o payback "${claims.payback}" (use "6 meses").`)
    else if (formatMonths(estimate.paybackMonths) !== formatMonths(claimed))
      problems.push(
        `Com estas premissas, o payback de ${fleet} é ${formatMonths(estimate.paybackMonths)}, mas o número de marketing diz ${claims.payback}.`,
      )
  }
  if (claims.roi) {
    const claimed = parseClaimPercent(claims.roi)
    if (claimed === null) problems.push(`Não foi possível ler o ROI "${claims.roi}" (use "300%").`)
    else if (formatRoi(estimate.roiTwoYears) !== formatRoi(claimed))
      problems.push(
        `Com estas premissas, o ROI em 2 anos de ${fleet} é ${plainSpaces(formatRoi(estimate.roiTwoYears))}, mas o número de marketing diz ${claims.roi}.`,
      )
  }
  return problems
}

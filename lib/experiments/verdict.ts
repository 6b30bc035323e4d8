// An experiment's verdict, per variant against the default ("controle"): a Beta-Binomial model
// with a uniform prior, Beta(1 + conversions, 1 + visitors - conversions) per arm, as GrowthBook's
// Bayesian engine frames it. Computed exactly (Evan Miller's closed form for P(B > A) and the
// expected loss built on it, https://www.evanmiller.org/bayesian-ab-testing.html), not by
// sampling, so the same figures always give the same verdict (docs/experiments.md).

export type Arm = { visitors: number; conversions: number }

/** Below this, a variant's figures say nothing yet: the Studio says so instead of naming a winner. */
export const MIN_VISITORS_PER_VARIANT = 100
export const MIN_CONVERSIONS_PER_VARIANT = 5

export type Verdict =
  | { kind: 'insufficient'; message: string }
  | {
      kind: 'ready'
      /** P(variant's rate > the default's), 0-1. */
      chanceToBeatControl: number
      /** Expected conversion rate lost by choosing the variant if the default is better (0-1 scale). */
      expectedLoss: number
      /** Expected conversion rate lost by keeping the default if the variant is better. */
      controlExpectedLoss: number
    }

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9): about 15 significant digits. */
function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ]
  const z = x - 1
  let sum = c[0]!
  for (let i = 1; i < 9; i++) sum += c[i]! / (z + i)
  const t = z + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum)
}

const logBeta = (a: number, b: number) => logGamma(a) + logGamma(b) - logGamma(a + b)

/**
 * P(X_B > X_A) for X_A ~ Beta(aA, bA), X_B ~ Beta(aB, bB), aB a whole number: Evan Miller's sum,
 * one term per unit of aB (a variant's conversions plus one, so a few dozen at B2B volumes).
 */
export function probabilityGreater(aA: number, bA: number, aB: number, bB: number): number {
  if (!Number.isInteger(aB) || aB < 1) throw new RangeError(`aB must be a whole number ≥ 1: ${aB}`)
  let total = 0
  for (let i = 0; i < aB; i++)
    total += Math.exp(
      logBeta(aA + i, bA + bB) - Math.log(bB + i) - logBeta(1 + i, bB) - logBeta(aA, bA),
    )
  return Math.min(1, Math.max(0, total))
}

const posterior = ({ visitors, conversions }: Arm) => {
  if (
    !Number.isInteger(visitors) ||
    !Number.isInteger(conversions) ||
    conversions < 0 ||
    visitors < conversions
  )
    throw new RangeError(`Not an arm: ${visitors} visitors, ${conversions} conversions`)
  return [1 + conversions, 1 + visitors - conversions] as const
}

/**
 * E[max(rate of `other` − rate of `chosen`, 0)]: what choosing `chosen` costs, in conversion
 * rate, in the worlds where `other` is better. Splits as E[p_o·1{p_o>p_c}] − E[p_c·1{p_o>p_c}],
 * each a mean times a probability under the size-biased posterior Beta(a + 1, b).
 */
function expectedLoss(chosen: readonly [number, number], other: readonly [number, number]) {
  const [aC, bC] = chosen
  const [aO, bO] = other
  const loss =
    (aO / (aO + bO)) * probabilityGreater(aC, bC, aO + 1, bO) -
    (aC / (aC + bC)) * probabilityGreater(aC + 1, bC, aO, bO)
  return Math.max(0, loss)
}

/** The verdict on one variant against the default, or why there is none yet. */
export function verdict(control: Arm, variant: Arm): Verdict {
  const short = [control, variant].some(
    (arm) =>
      arm.visitors < MIN_VISITORS_PER_VARIANT || arm.conversions < MIN_CONVERSIONS_PER_VARIANT,
  )
  if (short)
    return {
      kind: 'insufficient',
      message:
        `Ainda não há dados suficientes: cada versão precisa de ao menos ` +
        `${MIN_VISITORS_PER_VARIANT} visitantes e ${MIN_CONVERSIONS_PER_VARIANT} conversões.`,
    }
  const c = posterior(control)
  const v = posterior(variant)
  return {
    kind: 'ready',
    chanceToBeatControl: probabilityGreater(c[0], c[1], v[0], v[1]),
    expectedLoss: expectedLoss(v, c),
    controlExpectedLoss: expectedLoss(c, v),
  }
}

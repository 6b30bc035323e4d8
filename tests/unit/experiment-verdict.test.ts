import { describe, expect, it } from 'vitest'

import {
  MIN_CONVERSIONS_PER_VARIANT,
  MIN_VISITORS_PER_VARIANT,
  probabilityGreater,
  verdict,
} from '@/lib/experiments/verdict'

// The verdict's arithmetic against values known in closed form and against a numerical
// integration of the same Beta posteriors, computed here independently of the module's sum.

/** ln of the Beta(a, b) density on a grid of midpoints, normalised numerically. */
function density(a: number, b: number, n: number) {
  const log = Array.from({ length: n }, (_, i) => {
    const x = (i + 0.5) / n
    return (a - 1) * Math.log(x) + (b - 1) * Math.log(1 - x)
  })
  const peak = Math.max(...log)
  const raw = log.map((l) => Math.exp(l - peak))
  const total = raw.reduce((s, v) => s + v, 0)
  return raw.map((v) => v / total)
}

/** P(B > A) and E[max(B − A, 0)] by integrating on a grid of 20,000 points. */
function integrate(aA: number, bA: number, aB: number, bB: number) {
  const n = 20_000
  const fA = density(aA, bA, n)
  const fB = density(aB, bB, n)
  let cdfA = 0
  let firstMomentA = 0
  let greater = 0
  let loss = 0
  for (let i = 0; i < n; i++) {
    const x = (i + 0.5) / n
    // Half of A's mass in the same cell counts as below it (ties split evenly).
    greater += fB[i]! * (cdfA + fA[i]! / 2)
    loss += fB[i]! * (x * cdfA - firstMomentA)
    cdfA += fA[i]!
    firstMomentA += x * fA[i]!
  }
  return { greater, loss }
}

const arm = (visitors: number, conversions: number) => ({ visitors, conversions })

describe('the Beta-Binomial verdict', () => {
  it('matches values known in closed form', () => {
    // A uniform, B with density 2x: P(B > A) = ∫ 2x·x dx = 2/3.
    expect(probabilityGreater(1, 1, 2, 1)).toBeCloseTo(2 / 3, 12)
    // Identical posteriors: an even chance.
    expect(probabilityGreater(7, 94, 7, 94)).toBeCloseTo(0.5, 10)
  })

  it('matches a numerical integration of the posteriors', () => {
    for (const [control, variant] of [
      [arm(120, 6), arm(118, 11)],
      [arm(1_000, 20), arm(1_000, 31)],
      [arm(2_400, 48), arm(2_350, 40)],
      [arm(150, 9), arm(150, 9)],
    ] as const) {
      const result = verdict(control, variant)
      if (result.kind !== 'ready') throw new Error('expected a verdict')
      const c = [1 + control.conversions, 1 + control.visitors - control.conversions] as const
      const v = [1 + variant.conversions, 1 + variant.visitors - variant.conversions] as const
      const variantWins = integrate(c[0], c[1], v[0], v[1])
      const controlWins = integrate(v[0], v[1], c[0], c[1])
      expect(result.chanceToBeatControl).toBeCloseTo(variantWins.greater, 4)
      // Choosing the variant loses E[max(p_control − p_variant, 0)], and the other way round.
      expect(result.expectedLoss).toBeCloseTo(controlWins.loss, 5)
      expect(result.controlExpectedLoss).toBeCloseTo(variantWins.loss, 5)
    }
  })

  it('is symmetric: the chances of the two arms add up to one', () => {
    const a = probabilityGreater(21, 980, 32, 970)
    const b = probabilityGreater(32, 970, 21, 980)
    expect(a + b).toBeCloseTo(1, 10)
    expect(a).toBeGreaterThan(0.9)
  })

  it('names no winner below the minimum, and says so in Portuguese', () => {
    for (const [control, variant] of [
      [arm(MIN_VISITORS_PER_VARIANT - 1, 30), arm(500, 40)],
      [arm(500, 40), arm(500, MIN_CONVERSIONS_PER_VARIANT - 1)],
    ] as const) {
      const result = verdict(control, variant)
      expect(result.kind).toBe('insufficient')
      if (result.kind === 'insufficient')
        expect(result.message).toBe(
          'Ainda não há dados suficientes: cada versão precisa de ao menos 100 visitantes e 5 conversões.',
        )
    }
    expect(verdict(arm(100, 5), arm(100, 5)).kind).toBe('ready')
  })

  it('refuses figures that are not counts', () => {
    expect(() => verdict(arm(200, 250), arm(200, 10))).toThrow(RangeError)
    expect(() => verdict(arm(200, 10.5), arm(200, 10))).toThrow(RangeError)
  })
})

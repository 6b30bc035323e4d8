import { createHash } from 'node:crypto'

import { isRunningVariant, type ExperimentDefinition } from './definition'
import { CONTROL, parseVariantId } from './ids'

// Which variant a visitor sees, from the day's visitor hash the counting already makes
// (lib/analytics/collect.ts visitorHash: HMAC of address, browser and site under the day's salt):
// the same visitor gets the same variant all day, and nothing is stored, set or sent to do it.
// Mixed with the experiment's id so two experiments split their visitors independently.

export type WeightedVariant = { key: string; weight: number }

/** A number in [0, 1) from the visitor and the experiment: the first 48 bits of a SHA-256. */
function unitInterval(visitor: string, experiment: string): number {
  const digest = createHash('sha256').update(`${experiment}\n${visitor}`).digest()
  return digest.readUIntBE(0, 6) / 2 ** 48
}

/**
 * The variant for this visitor, by the variants' weights (any positive numbers; 1 and 1 is 50/50).
 * The control when there is no variant with a positive weight.
 */
export function assignVariant(
  visitor: string,
  experiment: string,
  variants: readonly WeightedVariant[],
): string {
  const live = variants.filter((variant) => Number.isFinite(variant.weight) && variant.weight > 0)
  const total = live.reduce((sum, variant) => sum + variant.weight, 0)
  if (total <= 0) return CONTROL
  let point = unitInterval(visitor, experiment) * total
  for (const variant of live) {
    if (point < variant.weight) return variant.key
    point -= variant.weight
  }
  // Rounding at the very top of the interval.
  return live.at(-1)!.key
}

/**
 * Whether '<experiment>/<variant>' is the variant this visitor (today's hash) is served: it runs
 * (isRunningVariant) and is the one assignVariant gives them, as proxy.ts does. A beacon or a form
 * naming any other counts nowhere (docs/experiments.md, "Counting").
 */
export function isAssignedVariant(
  definitions: readonly ExperimentDefinition[],
  id: string,
  visitor: string,
  now = Date.now(),
): boolean {
  const parsed = parseVariantId(id)
  if (!parsed || !isRunningVariant(definitions, id, now)) return false
  const definition = definitions.find((candidate) => candidate.key === parsed.experiment)!
  return assignVariant(visitor, definition.key, definition.variants) === parsed.variant
}

import type { Metadata } from 'next'

import { CONTROL } from './ids'
import type { ExperimentDefinition } from './definition'
import { variantId } from './ids'

/** The meta tag naming the variant served, for operators, tests and the counting. */
export const VARIANT_META = 'vigia:variant'

/**
 * `<meta name="vigia:variant" content="<experiment>/<variant>">` when an experiment runs on the
 * page (the default: '<experiment>/controle'); nothing otherwise.
 */
export function variantMetadata(
  experiment: ExperimentDefinition | null | undefined,
  variant = CONTROL,
): Metadata {
  return experiment ? { other: { [VARIANT_META]: variantId(experiment.key, variant) } } : {}
}

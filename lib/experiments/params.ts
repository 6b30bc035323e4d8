import { CONTROL } from './ids'
import { isRunning, type ExperimentDefinition } from './definition'

/**
 * The variant pages to prerender at build (app/variante): every variant but the default of each
 * experiment running now on the home page (`'/'`) or on a campaign page (`'/p/'`). One that starts
 * later is rendered on its first request and cached like the others.
 */
export function variantParams(
  definitions: readonly ExperimentDefinition[],
  section: '/' | '/p/',
  now = Date.now(),
) {
  return definitions
    .filter((definition) => isRunning(definition, now))
    .filter((definition) =>
      section === '/' ? definition.pagePath === '/' : definition.pagePath.startsWith(section),
    )
    .flatMap((definition) =>
      definition.variants
        .filter((variant) => variant.key !== CONTROL)
        .map((variant) => ({
          experiment: definition.key,
          variant: variant.key,
          ...(section === '/' ? {} : { slug: definition.pagePath.slice(section.length) }),
        })),
    )
}

// An experiment as the site uses it: the shape every part shares (serving in proxy.ts and the
// page, counting in lib/analytics, leads, the Studio's Desempenho), read from the `experiment`
// documents by lib/content getExperiments. Pure: no I/O, so the proxy, the pages and the tests
// judge "which experiment runs on this page now" the same way (docs/experiments.md).

import { isVisible } from '../content/visibility'
import { campaignPath, SLUG_PATTERN } from '../../sanity/lib/paths'
import { CONTROL, parseVariantId } from './ids'

export type ExperimentGoal = 'leads' | 'contacts'

export type ExperimentVariant = { key: string; label: string; weight: number }

export type ExperimentDefinition = {
  /** A slug: the <experiment> in '<experiment>/<variant>'. */
  key: string
  title: string
  /** '/' or '/p/<slug>', from the referenced page (lib/site-path.ts). */
  pagePath: string
  goal: ExperimentGoal
  /** The visibility window's model (lib/content/visibility.ts): the start included, the end not. */
  visibleFrom: string | null
  visibleUntil: string | null
  /** The control ('controle') first. */
  variants: ExperimentVariant[]
}

/** Whether the experiment runs at `now` (its window), whatever page it is on. */
export function isRunning(definition: ExperimentDefinition, now = Date.now()): boolean {
  return isVisible(definition, now) && definition.variants.length >= 2
}

/**
 * The experiment running on this page at `now`, or undefined. The Studio allows one running
 * experiment a page; should two overlap anyway, the first by key wins, the same everywhere.
 */
export function runningExperiment(
  definitions: readonly ExperimentDefinition[],
  pagePath: string,
  now = Date.now(),
): ExperimentDefinition | undefined {
  return [...definitions]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .find((definition) => definition.pagePath === pagePath && isRunning(definition, now))
}

/**
 * Whether '<experiment>/<variant>' names a variant of an experiment running at `now`: a beacon or
 * a form naming anything else counts nowhere. The control of a running experiment is one.
 */
export function isRunningVariant(
  definitions: readonly ExperimentDefinition[],
  id: string,
  now = Date.now(),
): boolean {
  const parsed = parseVariantId(id)
  if (!parsed) return false
  return definitions.some(
    (definition) =>
      definition.key === parsed.experiment &&
      // The one that runs on its page, not a second overlapping one the page does not serve.
      runningExperiment(definitions, definition.pagePath, now) === definition &&
      definition.variants.some((variant) => variant.key === parsed.variant),
  )
}

/** The variant keys, the control first (the query's order otherwise). */
export function orderedVariants(variants: readonly ExperimentVariant[]): ExperimentVariant[] {
  return [
    ...variants.filter((variant) => variant.key === CONTROL),
    ...variants.filter((variant) => variant.key !== CONTROL),
  ]
}

/** A row of the experiments query (sanity/lib/queries.ts EXPERIMENTS_QUERY). */
export type ExperimentRow = {
  key: string | null
  title: string | null
  goal: string | null
  visibleFrom: string | null
  visibleUntil: string | null
  page: { _type: string; slug: string | null } | null
  variants: { key: string | null; label: string | null; weight: number | null }[] | null
}

/** The page's public path: '/' for the home page, '/p/<slug>' for a campaign page. */
function pagePathOf(page: ExperimentRow['page']): string | undefined {
  if (page?._type === 'landingPage') return '/'
  if (page?._type === 'campaignPage' && page.slug && SLUG_PATTERN.test(page.slug))
    return campaignPath(page.slug)
  return undefined
}

/**
 * The definitions from the query's rows: rows without a usable key, page or control are left out
 * (the Studio refuses them; a half-made document must not reach visitors).
 */
export function experimentDefinitions(rows: readonly ExperimentRow[]): ExperimentDefinition[] {
  return rows.flatMap((row) => {
    const pagePath = pagePathOf(row.page)
    const variants = orderedVariants(
      (row.variants ?? []).flatMap((variant) =>
        variant.key && SLUG_PATTERN.test(variant.key)
          ? [{ key: variant.key, label: variant.label ?? variant.key, weight: variant.weight ?? 0 }]
          : [],
      ),
    )
    if (!row.key || !SLUG_PATTERN.test(row.key) || !pagePath || variants[0]?.key !== CONTROL)
      return []
    return [
      {
        key: row.key,
        title: row.title ?? row.key,
        pagePath,
        goal: row.goal === 'contacts' ? 'contacts' : 'leads',
        visibleFrom: row.visibleFrom,
        visibleUntil: row.visibleUntil,
        variants,
      } satisfies ExperimentDefinition,
    ]
  })
}

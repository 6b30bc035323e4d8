import { isRunningVariant, type ExperimentDefinition } from './definition'
import { refreshing } from '@/lib/refreshing'

// Which experiments' variants may be counted now (docs/experiments.md, "Counting"): the beacon's
// and the form's variant is checked against the published experiments, so a variant that ended,
// never existed or was made up counts nowhere. The definitions are read through a memo refreshed
// in the background, as the known paths are (lib/analytics/index.ts): a beacon never waits for
// the Content Lake, but the first one a process sees.

/** How long a read of the definitions is used before it is read again. */
export const EXPERIMENTS_REFRESH_MS = 60_000

/**
 * The definitions, read on first need, then again in the background once EXPERIMENTS_REFRESH_MS
 * old (a failed read keeps the list it had; none yet: no experiment runs).
 */
export function experimentsMemo(
  load: () => Promise<readonly ExperimentDefinition[]>,
  now: () => number = Date.now,
) {
  const list = refreshing(load, { ttlMs: EXPERIMENTS_REFRESH_MS, stale: 'serve', now })
  const current = async (): Promise<readonly ExperimentDefinition[]> => (await list.get()) ?? []
  return {
    /** Every published experiment, running or not. */
    definitions: current,
    /** Whether '<experiment>/<variant>' names a variant of an experiment running now. */
    async isRunning(id: string): Promise<boolean> {
      return isRunningVariant(await current(), id, now())
    },
  }
}

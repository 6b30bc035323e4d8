import 'server-only'

import { getExperiments } from '@/lib/content'

import { experimentsMemo } from './running'

// The published experiments as the server checks a beacon's or a form's variant against them
// (lib/experiments/running.ts). On globalThis: Next bundles each route apart, and one memo per
// process is enough.

const globalForExperiments = globalThis as typeof globalThis & {
  __vigiaExperiments?: ReturnType<typeof experimentsMemo>
}

export function liveExperiments(): ReturnType<typeof experimentsMemo> {
  return (globalForExperiments.__vigiaExperiments ??= experimentsMemo(() => getExperiments()))
}

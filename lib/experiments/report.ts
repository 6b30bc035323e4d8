import { visibilityState } from '../content/visibility'

import { CONTROL } from './ids'
import { isRunning, type ExperimentDefinition, type ExperimentGoal } from './definition'
import { parseVariantId } from './ids'
import { verdict } from './verdict'

// The verdict on each row of GET /api/analytics?by=variant (docs/experiments.md, "The verdict"):
// each variant against its experiment's default ('controle') on the experiment's goal, by the
// exact Beta-Binomial model of verdict.ts. Pure: the route adds it to the rows it read, the Studio
// shows it. No server-only imports (the Studio imports the types).

/** What a by=variant row carries besides the measures. */
export type VariantJudgement = {
  /** P(this variant's rate > the default's), 0-1; null for the default, no experiment, or too little data. */
  chanceToBeatControl: number | null
  /** The conversion rate expected to be lost by choosing it, if the default is better (0-1). */
  expectedLoss: number | null
  /** Why there is no chance: too little data yet (in Portuguese); null otherwise. */
  verdictMessage: string | null
}

/** An experiment as the report names it (the Studio's experiments section). */
export type ExperimentSummary = {
  key: string
  title: string
  pagePath: string
  goal: ExperimentGoal
  status: 'scheduled' | 'running' | 'ended'
  visibleFrom: string | null
  visibleUntil: string | null
  variants: { key: string; label: string }[]
}

type Measured = {
  key: string
  visitors: number
  leads: number
  whatsapp: number
  phone: number
  email: number
}

/**
 * The conversions a goal counts in a row: its leads, or its visitors who clicked a contact link
 * (the day's clickers per channel summed; one who used two channels counts twice, so bounded by
 * the visitors). More leads than visitors happens (a visitor sends two): bounded too.
 */
export function conversions(row: Measured, goal: ExperimentGoal): number {
  const count = goal === 'contacts' ? row.whatsapp + row.phone + row.email : row.leads
  return Math.min(row.visitors, count)
}

const NONE: VariantJudgement = {
  chanceToBeatControl: null,
  expectedLoss: null,
  verdictMessage: null,
}

/** Each row with its verdict against its experiment's default row (goal: leads unless known). */
export function judgeVariants<Row extends Measured>(
  rows: readonly Row[],
  definitions: readonly ExperimentDefinition[],
): (Row & VariantJudgement)[] {
  const byKey = new Map(rows.map((row) => [row.key, row]))
  return rows.map((row) => {
    const id = parseVariantId(row.key)
    if (!id || id.variant === CONTROL) return { ...row, ...NONE }
    const goal = definitions.find((d) => d.key === id.experiment)?.goal ?? 'leads'
    const control = byKey.get(`${id.experiment}/${CONTROL}`)
    const arm = (measured: Measured | undefined) => ({
      visitors: measured?.visitors ?? 0,
      conversions: measured ? conversions(measured, goal) : 0,
    })
    const judged = verdict(arm(control), arm(row))
    if (judged.kind === 'insufficient') return { ...row, ...NONE, verdictMessage: judged.message }
    return {
      ...row,
      chanceToBeatControl: judged.chanceToBeatControl,
      expectedLoss: judged.expectedLoss,
      verdictMessage: null,
    }
  })
}

/** The experiments as the report lists them: every published one, with where it stands. */
export function experimentSummaries(
  definitions: readonly ExperimentDefinition[],
  now = Date.now(),
): ExperimentSummary[] {
  return definitions.map((definition) => {
    const state = visibilityState(definition, now)
    return {
      key: definition.key,
      title: definition.title,
      pagePath: definition.pagePath,
      goal: definition.goal,
      // A window that is open on an experiment without two variants does not run: it is over.
      status: isRunning(definition, now)
        ? 'running'
        : state === 'scheduled'
          ? 'scheduled'
          : 'ended',
      visibleFrom: definition.visibleFrom,
      visibleUntil: definition.visibleUntil,
      variants: definition.variants.map(({ key, label }) => ({ key, label })),
    }
  })
}

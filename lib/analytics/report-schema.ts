import * as z from 'zod'

import {
  CONVERSION_GROUP_SPECS,
  DIMENSION_SPECS,
  MEASURE_SPECS,
  REPORT_GROUP_NAMES,
} from './measures.mjs'

// The contract of GET /api/analytics, shared by the route (server) and the Studio's Desempenho
// tool (browser): the query it accepts and the report it answers. No server-only imports here.

type Reported = Extract<(typeof DIMENSION_SPECS)[number], { report: string }>
/**
 * How the rows are grouped: one row per key of a reported dimension or of a grouping of conversions
 * alone (measures.mjs), or per day.
 */
export type ReportGroup =
  Reported['report'] | (typeof CONVERSION_GROUP_SPECS)[number]['report'] | 'day'
export const REPORT_GROUPS = REPORT_GROUP_NAMES as readonly [ReportGroup, ...ReportGroup[]]
/** The groups whose keys are paths, and the day: those the `path` filter goes with. */
export const PATH_GROUPS: readonly ReportGroup[] = [
  ...DIMENSION_SPECS.flatMap((spec) => ('paths' in spec && spec.paths ? [spec.report] : [])),
  'day',
]

/** The longest period one request may ask for, in days (both ends included). */
export const REPORT_MAX_DAYS = 400

/** Days are calendar days in the site's zone (lib/site-time.mjs). */
export { SITE_TIME_ZONE as REPORT_TIME_ZONE } from '../site-time.mjs'

export { DIRECT_KEY, NO_CAMPAIGN_KEY } from './measures.mjs'

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** A real calendar date written YYYY-MM-DD. */
export function isReportDate(value: string): boolean {
  if (!DATE.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

/** Days from `from` to `to`, both included (1 when equal). */
export function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1
}

const reportDate = (label: string) =>
  z
    .string({ error: `Informe "${label}" como AAAA-MM-DD.` })
    .refine(isReportDate, { error: `"${label}" deve ser uma data válida no formato AAAA-MM-DD.` })

/** The query string of GET /api/analytics, as an object of strings. Messages in Portuguese. */
export const reportQuerySchema = z
  .object({
    from: reportDate('from'),
    to: reportDate('to'),
    by: z.enum(REPORT_GROUPS, {
      error: `"by" deve ser um destes: ${REPORT_GROUPS.join(', ')}.`,
    }),
    format: z
      .enum(['json', 'csv'], { error: '"format" deve ser json ou csv.' })
      .optional()
      .default('json'),
    /** Only this page's figures (the per-document view); a path as the site serves it. */
    path: z
      .string()
      .max(300, { error: '"path" deve ter no máximo 300 caracteres.' })
      .regex(/^\/[^\s?#]*$/, { error: '"path" deve começar com / (por exemplo /p/frotas).' })
      .optional(),
  })
  .refine((query) => query.from <= query.to, {
    error: '"from" deve ser anterior ou igual a "to".',
    path: ['from'],
  })
  .refine((query) => daysBetween(query.from, query.to) <= REPORT_MAX_DAYS, {
    error: `O período pode ter no máximo ${REPORT_MAX_DAYS} dias.`,
    path: ['to'],
  })

export type ReportQuery = z.infer<typeof reportQuerySchema>

const measureSchemas = {
  /**
   * A count: views, daily unique visitors summed, leads, materials' downloads, visitors who clicked
   * a contact link.
   */
  count: z.number().int().nonnegative(),
  /** leads ÷ visitors, from 0 to 1 (0 with no visitors). */
  ratio: z.number().min(0).max(1),
  /** Average seconds a view was visible; null where no view was measured. */
  seconds: z.number().nonnegative().nullable(),
  /** Average deepest point scrolled, in %; null where no view was measured. */
  percent: z.number().min(0).max(100).nullable(),
} as const

/**
 * A row: `key` (the path, entry path, utm_campaign, source, variant, material identifier or
 * YYYY-MM-DD) and every measure.
 */
export const reportRowSchema = z.object({
  key: z.string(),
  ...(Object.fromEntries(MEASURE_SPECS.map((spec) => [spec.name, measureSchemas[spec.kind]])) as {
    visits: typeof measureSchemas.count
    visitors: typeof measureSchemas.count
    leads: typeof measureSchemas.count
    conversion: typeof measureSchemas.ratio
    downloads: typeof measureSchemas.count
    whatsapp: typeof measureSchemas.count
    phone: typeof measureSchemas.count
    email: typeof measureSchemas.count
    engagedSeconds: typeof measureSchemas.seconds
    scrollDepth: typeof measureSchemas.percent
  }),
  /**
   * by=page only: the 75th percentile of the page's hard loads (lib/analytics/vitals.mjs), LCP and
   * INP in ms, CLS unitless (2 decimals); null where no view of it sent one in the period.
   */
  lcpP75: z.number().nonnegative().nullable().optional(),
  inpP75: z.number().nonnegative().nullable().optional(),
  clsP75: z.number().nonnegative().nullable().optional(),
})
export type ReportRow = z.infer<typeof reportRowSchema>

/**
 * A by=variant row's verdict (lib/experiments/report.ts): the chance to beat the experiment's
 * default and the expected loss, 0-1, or null with the reason (too little data) in Portuguese.
 */
const verdictFields = {
  chanceToBeatControl: z.number().min(0).max(1).nullable().optional(),
  expectedLoss: z.number().min(0).max(1).nullable().optional(),
  verdictMessage: z.string().nullable().optional(),
}

/** The experiments a by=variant report names (lib/experiments/report.ts ExperimentSummary). */
const experimentSchema = z.object({
  key: z.string(),
  title: z.string(),
  pagePath: z.string(),
  goal: z.enum(['leads', 'contacts']),
  status: z.enum(['scheduled', 'running', 'ended']),
  visibleFrom: z.string().nullable(),
  visibleUntil: z.string().nullable(),
  variants: z.array(z.object({ key: z.string(), label: z.string() })),
})

export const reportSchema = z.object({
  from: z.string(),
  to: z.string(),
  by: z.enum(REPORT_GROUPS),
  rows: z.array(reportRowSchema.extend(verdictFields)),
  /** by=variant only: every published experiment. */
  experiments: z.array(experimentSchema).optional(),
})
export type Report = z.infer<typeof reportSchema>

/** The error body of every refusal: `{ "error": "<mensagem em português>" }`. */
export const reportErrorSchema = z.object({ error: z.string() })
export type ReportError = z.infer<typeof reportErrorSchema>

export { conversionRate, OTHER_KEY } from './measures.mjs'

/** The query string for a report (the Studio builds its requests with this). */
export function reportSearchParams(query: {
  from: string
  to: string
  by: ReportGroup
  format?: 'json' | 'csv'
  path?: string
}): URLSearchParams {
  const params = new URLSearchParams({ from: query.from, to: query.to, by: query.by })
  if (query.format && query.format !== 'json') params.set('format', query.format)
  if (query.path) params.set('path', query.path)
  return params
}

export { VITAL_SPECS, vitalRating, type VitalRating } from './vitals.mjs'

export {
  CONVERSION_GROUP_SPECS,
  DIMENSION_SPECS,
  MEASURE_SPECS,
  KEY_COLUMNS,
  measuresOf,
} from './measures.mjs'

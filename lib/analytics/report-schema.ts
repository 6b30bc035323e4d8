import * as z from 'zod'

// The contract of GET /api/analytics, shared by the route (server) and the Studio's Desempenho
// tool (browser): the query it accepts and the report it answers. No server-only imports here.

/** How the rows are grouped: one row per page path, utm_campaign, source, or day. */
export const REPORT_GROUPS = ['page', 'campaign', 'source', 'day'] as const
export type ReportGroup = (typeof REPORT_GROUPS)[number]

/** The longest period one request may ask for, in days (both ends included). */
export const REPORT_MAX_DAYS = 400

/** Days are calendar days in this zone (the site's audience is Brazilian). */
export const REPORT_TIME_ZONE = 'America/Sao_Paulo'

/** The key that gathers campaign or source values past the daily cap, and paths the site does not serve. */
export const OTHER_KEY = '(outras)'
/** The key of visits that came with no utm_source and no external referrer. */
export const DIRECT_KEY = '(direto)'
/** The key of visits (and leads) that carried no utm_campaign. */
export const NO_CAMPAIGN_KEY = '(sem campanha)'

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

export const reportRowSchema = z.object({
  /** The path (page), utm_campaign value (campaign), source (source) or date YYYY-MM-DD (day). */
  key: z.string(),
  visits: z.number().int().nonnegative(),
  /** Sum of the daily unique visitors over the period (a visitor is counted once a day). */
  visitors: z.number().int().nonnegative(),
  leads: z.number().int().nonnegative(),
  /** leads ÷ visitors, from 0 to 1 (0 with no visitors). */
  conversion: z.number().min(0).max(1),
})
export type ReportRow = z.infer<typeof reportRowSchema>

export const reportSchema = z.object({
  from: z.string(),
  to: z.string(),
  by: z.enum(REPORT_GROUPS),
  rows: z.array(reportRowSchema),
})
export type Report = z.infer<typeof reportSchema>

/** The error body of every refusal: `{ "error": "<mensagem em português>" }`. */
export const reportErrorSchema = z.object({ error: z.string() })
export type ReportError = z.infer<typeof reportErrorSchema>

/** leads ÷ visitors in [0, 1]: 0 with no visitors, 1 at most (more leads than visitors happens). */
export function conversionRate(leads: number, visitors: number): number {
  if (!(visitors > 0) || !(leads > 0)) return 0
  return Math.min(1, leads / visitors)
}

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

/** The CSV columns, in order (the header row). */
export const REPORT_CSV_COLUMNS = ['key', 'visits', 'visitors', 'leads', 'conversion'] as const

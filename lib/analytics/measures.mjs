// What the visit counts are made of, declared once (docs/analytics.md, "What is counted"): the
// dimensions a view is counted under and the measures of each report row. The collector
// (collect.ts), the report's SQL (report-db.mjs), its schema (report-schema.ts), the CSV
// (csv.mjs), the Studio's Desempenho tool and `npm run stats` all loop over these lists. Plain
// JavaScript (typed with JSDoc) so that the node script imports it without a TypeScript loader.

/**
 * @typedef {{ name: string, label: string, capped: boolean, report?: string }} DimensionSpec
 * @typedef {'count' | 'ratio' | 'seconds' | 'percent'} MeasureKind
 * @typedef {{ name: string, label: string, short: string, kind: MeasureKind, column?: string, contact?: boolean, reading?: boolean }} MeasureSpec
 */

/**
 * Each view counts once under each dimension. `capped`: visitors choose its values, so a day keeps
 * at most CAP_PER_DAY of them under their own name (plus those real visitors arrived from).
 * `report`: the `by=` value that groups by it (the others are stored for SQL, not reported).
 * @type {readonly DimensionSpec[]}
 */
export const DIMENSION_SPECS = Object.freeze([
  { name: 'site', label: 'Site inteiro', capped: false },
  { name: 'page', label: 'Página', capped: false, report: 'page' },
  { name: 'landing', label: 'Página de entrada', capped: false, report: 'landing' },
  { name: 'campaign', label: 'Campanha', capped: true, report: 'campaign' },
  { name: 'source', label: 'Origem', capped: true, report: 'source' },
  { name: 'medium', label: 'Mídia', capped: true },
  { name: 'referrer', label: 'Site de origem', capped: true },
])

/** The dimensions' names, in order. */
export const DIMENSION_NAMES = Object.freeze(DIMENSION_SPECS.map((spec) => spec.name))

/**
 * The contact links counted (lib/analytics/beacon.ts): each is a measure of its own, the visitors
 * of the day who clicked it, and a column of analytics.daily_counts.
 */
export const CONTACT_CHANNELS = Object.freeze(['whatsapp', 'phone', 'email'])

/**
 * The measures of every report row, in the order the Studio, the CSV and `npm run stats` show
 * them. `column`: the CSV header (Portuguese, as a pt-BR spreadsheet shows it). `reading`: an
 * average over the views whose end was reported (null where there was none).
 * @type {readonly MeasureSpec[]}
 */
export const MEASURE_SPECS = Object.freeze([
  { name: 'visits', label: 'Visitas', short: 'visitas', kind: 'count', column: 'Visitas' },
  {
    name: 'visitors',
    label: 'Visitantes',
    short: 'visitantes',
    kind: 'count',
    column: 'Visitantes',
  },
  { name: 'leads', label: 'Leads', short: 'leads', kind: 'count', column: 'Leads' },
  { name: 'conversion', label: 'Conversão', short: 'conv.', kind: 'ratio', column: 'Conversão' },
  {
    name: 'whatsapp',
    label: 'WhatsApp',
    short: 'whatsapp',
    kind: 'count',
    column: 'WhatsApp',
    contact: true,
  },
  {
    name: 'phone',
    label: 'Telefone',
    short: 'telefone',
    kind: 'count',
    column: 'Telefone',
    contact: true,
  },
  {
    name: 'email',
    label: 'E-mail',
    short: 'e-mail',
    kind: 'count',
    column: 'E-mail',
    contact: true,
  },
  {
    name: 'engagedSeconds',
    label: 'Tempo de leitura',
    short: 'leitura',
    kind: 'seconds',
    column: 'Tempo médio de leitura (s)',
    reading: true,
  },
  {
    name: 'scrollDepth',
    label: 'Rolagem',
    short: 'rolagem',
    kind: 'percent',
    column: 'Rolagem média (%)',
    reading: true,
  },
])

/** The `by=` values of GET /api/analytics: the reported dimensions, and the day. */
export const REPORT_GROUP_NAMES = Object.freeze([
  ...DIMENSION_SPECS.flatMap((spec) => (spec.report ? [spec.report] : [])),
  'day',
])

/** The header of the key column, per `by`. */
export const KEY_COLUMNS = Object.freeze({
  page: 'Página',
  landing: 'Página de entrada',
  campaign: 'Campanha',
  source: 'Origem',
  day: 'Dia',
})

/**
 * The most rows one report has (GET /api/analytics, its CSV, `npm run stats`); the rest are summed
 * into '(outras)'. A by=day report is bounded by REPORT_MAX_DAYS instead, and never cut.
 */
export const REPORT_MAX_ROWS = 500

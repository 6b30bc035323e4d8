// What the visit counts are made of, declared once (docs/analytics.md, "What is counted"): the
// dimensions and the measures that the collector, the SQL, the report, the CSV, the Studio and
// `npm run stats` all loop over. Plain JavaScript (JSDoc types): the node script needs no loader.

/**
 * @typedef {{ page: string, landing: string, campaign?: string, source?: string, medium?: string, referrer?: string, variant?: string, userAgent?: string }} Visit
 *   What a view (collect.ts record) or a lead (lib/leads/compose.ts) is counted by, cleaned:
 *   from the beacon or the form, the page and the experiment's variant seen (`<experiment>/<variant>`,
 *   only one that runs); from the visit's first touch, the entry page, tags of at most 100
 *   characters, the referrer's host (not ours); from the request, its user agent (never stored).
 * @typedef {{ name: string, label: string, capped: boolean, key: (visit: Visit) => string,
 *   report?: string, file?: string, paths?: boolean, entryOnly?: boolean, heading?: string, none?: string }} DimensionSpec
 * @typedef {{ report: string, label: string, title: string, file: string, heading: string, none: string,
 *   measures: readonly string[] }} ConversionGroupSpec
 * @typedef {'count' | 'ratio' | 'seconds' | 'percent'} MeasureKind
 * @typedef {{ name: string, label: string, short: string, kind: MeasureKind, column?: string, contact?: boolean, reading?: boolean }} MeasureSpec
 */

/** The key of the whole-site row (daily unique visitors of the site). */
export const SITE_KEY = 'total'
/**
 * The key that gathers values past a cap: campaign or source values past the day's, paths the site
 * does not serve, and a report's rows past REPORT_MAX_ROWS.
 */
export const OTHER_KEY = '(outras)'
/** The key of visits that came with no utm_source and no external referrer. */
export const DIRECT_KEY = '(direto)'
/** The key of visits (and leads) that carried no utm_campaign. */
export const NO_CAMPAIGN_KEY = '(sem campanha)'
export const NO_MEDIUM_KEY = '(nenhum)'
/** The key of visits that saw no running experiment (docs/experiments.md). */
export const NO_VARIANT_KEY = '(sem experimento)'

/**
 * The device class of a user agent, told on the server: an iPad asking for the desktop site
 * (iOS 13+) reads as a Mac and counts as a desktop.
 * @param {string | undefined} userAgent
 */
export function deviceClass(userAgent) {
  if (/iPad|Tablet|PlayBook|Silk|Android(?!.*Mobile)/i.test(userAgent ?? '')) return 'tablet'
  return /Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent ?? '') ? 'phone' : 'desktop'
}

/**
 * Each view counts once under each dimension, keyed by `key` (docs/analytics.md, "Adding a
 * dimension"). `capped`: visitors choose its values, so a day keeps at most CAP_PER_DAY (plus those
 * promoted or named). `report`: its `by=` value (`file`: its CSV's name; unreported ones serve SQL).
 * `paths`: keys are paths (the `path` filter). `entryOnly`: the visit's first view only.
 * `heading`: the Studio's column header (else `label`); `none`: its name for a missing value.
 */
export const DIMENSION_SPECS = Object.freeze(
  /** @satisfies {readonly DimensionSpec[]} */ (
    /** @type {const} */ ([
      { name: 'site', label: 'Site inteiro', capped: false, key: () => SITE_KEY },
      {
        name: 'page',
        label: 'Página',
        capped: false,
        key: (visit) => visit.page,
        report: 'page',
        file: 'paginas',
        paths: true,
        none: '(sem página)',
      },
      {
        name: 'landing',
        label: 'Página de entrada',
        capped: false,
        key: (visit) => visit.landing,
        report: 'landing',
        file: 'entradas',
        paths: true,
        entryOnly: true,
        none: '(sem página)',
      },
      {
        name: 'campaign',
        label: 'Campanha',
        capped: true,
        key: (visit) => visit.campaign ?? NO_CAMPAIGN_KEY,
        report: 'campaign',
        file: 'campanhas',
        heading: 'Campanha (utm_campaign)',
        none: NO_CAMPAIGN_KEY,
      },
      {
        name: 'source',
        label: 'Origem',
        capped: true,
        key: (visit) => visit.source ?? visit.referrer ?? DIRECT_KEY,
        report: 'source',
        file: 'origens',
        none: DIRECT_KEY,
      },
      {
        name: 'medium',
        label: 'Mídia',
        capped: true,
        key: (visit) => visit.medium ?? NO_MEDIUM_KEY,
      },
      {
        name: 'referrer',
        label: 'Site de origem',
        capped: true,
        key: (visit) => visit.referrer ?? DIRECT_KEY,
      },
      // Not capped: the collector counts only variants of running experiments (collect.ts), a few.
      {
        name: 'variant',
        label: 'Versão',
        capped: false,
        key: (visit) => visit.variant ?? NO_VARIANT_KEY,
        report: 'variant',
        file: 'versoes',
        heading: 'Experimento/versão',
        none: NO_VARIANT_KEY,
      },
      {
        name: 'device',
        label: 'Dispositivo',
        capped: false,
        key: (visit) => deviceClass(visit.userAgent),
        report: 'device',
        file: 'dispositivos',
        none: '(sem dispositivo)',
      },
    ])
  ),
)

/**
 * The dimensions whose values visitors choose (`capped`): the database keeps no list of its own.
 * @type {ReadonlySet<string>}
 */
export const CAPPED_DIMENSIONS = new Set(DIMENSION_SPECS.flatMap((s) => (s.capped ? [s.name] : [])))

/**
 * The key of each dimension a visit counts under: a view's (collect.ts), a lead's or a download's
 * (stored whole in their `dimensoes`, lib/leads/compose.ts), so each is credited as its visit.
 * @param {Visit} visit @returns {Record<string, string>}
 */
export function dimensionKeys(visit) {
  return Object.fromEntries(DIMENSION_SPECS.map((spec) => [spec.name, spec.key(visit)]))
}

/**
 * The visit of a lead or a download, whose dimensionKeys it stores (`dimensoes`, read by
 * analytics.conversion_counts): its attribution columns, cleaned as a beacon's
 * (lib/leads/compose.ts), and the request's user agent, so it is credited as its visit was counted.
 * @param {{ origem_pagina?: string, origem_entrada?: string, utm_source?: string, utm_medium?: string,
 *   utm_campaign?: string, referrer_host?: string, variant?: string }} columns
 * @param {string | null} userAgent
 * @returns {Visit}
 */
export function conversionVisit(columns, userAgent) {
  const page = columns.origem_pagina ?? '/'
  return {
    page,
    landing: columns.origem_entrada ?? page,
    campaign: columns.utm_campaign,
    source: columns.utm_source?.toLowerCase(),
    medium: columns.utm_medium,
    referrer: columns.referrer_host,
    variant: columns.variant,
    userAgent: userAgent ?? undefined,
  }
}

/**
 * Groupings of conversions alone, with no views (docs/analytics.md, "Materials"): a by=<report> row
 * per key of analytics.conversion_counts('material'); tables show only `measures`, the JSON every
 * one. `title`: the Studio's table; the rest as in DIMENSION_SPECS.
 */
export const CONVERSION_GROUP_SPECS = Object.freeze(
  /** @satisfies {readonly ConversionGroupSpec[]} */ (
    /** @type {const} */ ([
      {
        report: 'material',
        label: 'Material',
        title: 'Materiais',
        file: 'materiais',
        heading: 'Material (identificador)',
        none: '(sem identificador)',
        measures: ['downloads'],
      },
    ])
  ),
)

/**
 * Where a material's page is served: a download stored without the form's path (never by the site)
 * counts there (analytics.conversion_counts; tests/unit/concepts.test.ts holds the SQL to it).
 */
export const MATERIAL_PAGE_PREFIX = '/materiais'

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
  // Materials' download forms sent (analytics.conversion_counts), credited like leads but never
  // one: `leads` and `conversion` stay demo requests.
  {
    name: 'downloads',
    label: 'Downloads de materiais',
    short: 'downloads',
    kind: 'count',
    column: 'Downloads de materiais',
  },
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

/** The `by=` values of GET /api/analytics: the reported dimensions, the conversions', the day. */
export const REPORT_GROUP_NAMES = Object.freeze([
  ...DIMENSION_SPECS.flatMap((spec) => (spec.report ? [spec.report] : [])),
  ...CONVERSION_GROUP_SPECS.map((spec) => spec.report),
  'day',
])

/** The header of the key column, per `by` (the CSV's, `npm run stats`'s). */
export const KEY_COLUMNS = Object.freeze(
  Object.fromEntries([
    ...DIMENSION_SPECS.flatMap((spec) => (spec.report ? [[spec.report, spec.label]] : [])),
    ...CONVERSION_GROUP_SPECS.map((spec) => [spec.report, spec.label]),
    ['day', 'Dia'],
  ]),
)

/**
 * The measures a table of one `by` shows (the Studio's, the CSV's, `npm run stats`'s): every one,
 * but for a grouping of conversions alone, its own.
 * @param {string} by @returns {readonly MeasureSpec[]}
 */
export function measuresOf(by) {
  const group = CONVERSION_GROUP_SPECS.find((spec) => spec.report === by)
  if (!group) return MEASURE_SPECS
  const names = /** @type {readonly string[]} */ (group.measures)
  return MEASURE_SPECS.filter((spec) => names.includes(spec.name))
}

// The limits that keep one client from skewing the counts (docs/analytics.md, "Hostile input gets
// nothing"). record_views's SQL repeats the first four and CONTACT_CHANNELS (a migration cannot
// import them): tests/unit/concepts.test.ts holds it to these values.

/**
 * Values of a capped dimension a day keeps under their own name; past it, a value waits as a
 * candidate until PROMOTE_ADDRESSES address buckets (collect.ts addressBucket) sent it, at most
 * PROMOTIONS_PER_DAY promoted a day and dimension. A value named in the Studio always has its row.
 */
export const CAP_PER_DAY = 200
export const PROMOTE_ADDRESSES = 3
export const PROMOTIONS_PER_DAY = 100
/** Candidates a day and dimension waits with at most: past it, a new value is only (outras). */
export const CANDIDATES_PER_DAY = 10_000

/** The seconds one visitor's reading of one page counts in a day, in all (reading-ledger.ts). */
export const READ_SECONDS_PER_DAY = 1800

/** Distinct values of a capped dimension one instance keeps a day, then (outras): bounded memory. */
export const MEMORY_VALUES_PER_DAY = 20_000

/**
 * The most rows one report has (GET /api/analytics, its CSV, `npm run stats`); the rest are summed
 * into '(outras)'. A by=day report is bounded by REPORT_MAX_DAYS instead, and never cut.
 */
export const REPORT_MAX_ROWS = 500

/**
 * leads ÷ visitors in [0, 1]: 0 with no visitors, 1 at most (more leads than visitors happens).
 * @param {number} leads @param {number} visitors
 */
export function conversionRate(leads, visitors) {
  if (!(visitors > 0) || !(leads > 0)) return 0
  return Math.min(1, leads / visitors)
}

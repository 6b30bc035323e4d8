// The speed visitors' browsers measured (docs/analytics.md, "Speed as visitors live it"): LCP, INP
// and CLS of a hard load, declared once for the collector, the report's p75, the CSV and the
// Studio. Plain JavaScript (JSDoc types): `npm run stats` needs no TypeScript loader.

/**
 * @typedef {'lcp' | 'inp' | 'cls'} VitalName
 * @typedef {{ name: VitalName, field: 'lcpP75' | 'inpP75' | 'clsP75', label: string, column: string,
 *   unit: string, min: number, max: number, decimals: number, good: number, poor: number }} VitalSpec
 * @typedef {'bom' | 'precisa melhorar' | 'ruim'} VitalRating
 */

/**
 * `min`: the upper bound of the first bucket (below it, differences do not matter); `max`: the
 * cap, since no real view waits a minute for its largest paint or a reaction, and a CLS of 10 is
 * already a page that never stops moving. `good`/`poor`: Google's thresholds ("bom" up to `good`,
 * "ruim" above `poor`). `field`: the report's p75 of it.
 * @type {readonly VitalSpec[]}
 */
export const VITAL_SPECS = Object.freeze([
  {
    name: 'lcp',
    field: 'lcpP75',
    label: 'LCP',
    column: 'LCP p75 (ms)',
    unit: 'ms',
    min: 1,
    max: 60_000,
    decimals: 0,
    good: 2500,
    poor: 4000,
  },
  {
    name: 'inp',
    field: 'inpP75',
    label: 'INP',
    column: 'INP p75 (ms)',
    unit: 'ms',
    min: 1,
    max: 60_000,
    decimals: 0,
    good: 200,
    poor: 500,
  },
  {
    name: 'cls',
    field: 'clsP75',
    label: 'CLS',
    column: 'CLS p75',
    unit: '',
    min: 0.001,
    max: 10,
    decimals: 2,
    good: 0.1,
    poor: 0.25,
  },
])

/**
 * Buckets per doubling of the value: a bucket's upper bound is at most 4.4% above any value in it,
 * so a p75 read from the histogram is that close, for any period, with no per-visit row.
 */
export const BUCKETS_PER_DOUBLING = 16

/** @param {string} name */
function specOf(name) {
  const spec = VITAL_SPECS.find((s) => s.name === name)
  if (!spec) throw new Error(`Unknown web vital: ${name}`)
  return spec
}

/**
 * The bucket of one figure sent by a browser, capped at its `max`; undefined for what no browser
 * produces (not a number, not finite, negative), which is refused.
 * @param {VitalName} name @param {unknown} value @returns {number | undefined}
 */
export function vitalBucket(name, value) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined
  const { min, max } = specOf(name)
  const capped = Math.min(value, max)
  if (capped <= min) return 0
  // The epsilon keeps a value exactly on a bound in the bucket it closes.
  return Math.ceil(BUCKETS_PER_DOUBLING * Math.log2(capped / min) - 1e-9)
}

/** The largest bucket of a vital (its `max`'s). @param {VitalName} name */
export function lastBucket(name) {
  return /** @type {number} */ (vitalBucket(name, specOf(name).max))
}

/**
 * The upper bound of a bucket, rounded as the report shows it (never past `max`).
 * @param {VitalName} name @param {number} bucket
 */
export function bucketUpper(name, bucket) {
  const { min, max, decimals } = specOf(name)
  const upper = Math.min(max, min * 2 ** (bucket / BUCKETS_PER_DOUBLING))
  const scale = 10 ** decimals
  return Math.round(upper * scale) / scale
}

/**
 * The 75th percentile of a histogram (bucket → samples), as Google reports a page's figure: the
 * upper bound of the bucket holding the sample ranked ceil(0.75 × n). Null without a sample.
 * @param {VitalName} name @param {Iterable<[number, number]>} histogram @returns {number | null}
 */
export function p75(name, histogram) {
  const buckets = [...histogram].filter(([, n]) => n > 0).sort(([a], [b]) => a - b)
  const total = buckets.reduce((sum, [, n]) => sum + n, 0)
  if (total === 0) return null
  const rank = Math.ceil(0.75 * total)
  let seen = 0
  for (const [bucket, n] of buckets) {
    seen += n
    if (seen >= rank) return bucketUpper(name, bucket)
  }
  return null
}

/**
 * Google's verdict on a figure, in Portuguese ("bom", "precisa melhorar", "ruim"); null for none.
 * @param {VitalName} name @param {number | null | undefined} value @returns {VitalRating | null}
 */
export function vitalRating(name, value) {
  if (value === null || value === undefined) return null
  const { good, poor } = specOf(name)
  return value <= good ? 'bom' : value <= poor ? 'precisa melhorar' : 'ruim'
}

// The report as CSV for a spreadsheet set to Portuguese (Brazil), shared by GET /api/analytics
// (format=csv) and `npm run stats -- --csv`. Excel in pt-BR splits a CSV on ';' and reads decimals
// with a comma; it takes the file as UTF-8 only with a byte-order mark (else "Conversão" comes out
// garbled). Google Sheets reads the same file (it detects ';'). Campaign and source values come
// from visitors, so no cell may start a formula (OWASP "CSV Injection"): a value that begins with
// = + - @, tab or CR gets a leading apostrophe, and so does every such character right after a
// separator or line break inside a value, so that a reader that splits naively still sees none.

import { FORMULA_AFTER_SEPARATOR, asSpreadsheetText } from '../text/formula.mjs'

import { KEY_COLUMNS, measuresOf } from './measures.mjs'
import { VITAL_SPECS } from './vitals.mjs'

export const CSV_SEPARATOR = ';'
export const CSV_BOM = '\uFEFF'

/** One number as pt-BR writes it: decimal comma, no thousands separator. @param {number} value */
export function csvNumber(value) {
  if (!Number.isFinite(value)) return ''
  return String(Math.round(value * 10_000) / 10_000).replace('.', ',')
}

/** One cell. @param {string | number | null | undefined} value */
export function csvField(value) {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number') return csvNumber(value)
  const text = asSpreadsheetText(String(value).replace(FORMULA_AFTER_SEPARATOR, "$1'"))
  return /[";,\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * A by=variant report's verdict (lib/experiments/report.ts), after the measures, when its rows
 * carry it (the route's do; `npm run stats` reads no experiments): 0-1 or empty, and why empty.
 */
export const VERDICT_COLUMNS = Object.freeze([
  { name: 'chanceToBeatControl', column: 'Chance de superar o padrão' },
  { name: 'expectedLoss', column: 'Perda esperada' },
  { name: 'verdictMessage', column: 'Veredito' },
])

/**
 * The rows with a header row, lines ended by CRLF, after a byte-order mark; the measures of the
 * table of that `by` (measuresOf: a material's row has its downloads only).
 * @param {readonly Record<string, unknown>[]} rows @param {string} by
 */
export function reportCsv(rows, by = 'page') {
  const header = [KEY_COLUMNS[/** @type {keyof typeof KEY_COLUMNS} */ (by)] ?? 'Chave']
  const columns = [
    ...measuresOf(by).map((spec) => ({ name: spec.name, column: spec.column ?? spec.label })),
    ...(by === 'variant' && rows.some((row) => 'chanceToBeatControl' in row)
      ? VERDICT_COLUMNS
      : []),
    // A page's speed (p75 of its hard loads; empty without a sample).
    ...(by === 'page'
      ? VITAL_SPECS.map((spec) => ({ name: spec.field, column: spec.column }))
      : []),
  ]
  for (const { column } of columns) header.push(column)
  const lines = [header.map((title) => csvField(title)).join(CSV_SEPARATOR)]
  for (const row of rows) {
    const cells = [csvField(/** @type {string} */ (row.key))]
    for (const { name } of columns)
      cells.push(csvField(/** @type {string | number | null | undefined} */ (row[name])))
    lines.push(cells.join(CSV_SEPARATOR))
  }
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`
}

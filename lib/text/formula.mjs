// The spreadsheet-formula guard (OWASP "CSV Injection",
// https://owasp.org/www-community/attacks/CSV_Injection): a spreadsheet runs a cell that starts
// with = + - @, tab or CR as a formula; a leading apostrophe makes it text, and spreadsheets do not
// show it. Shared by the report's CSV (lib/analytics/csv.mjs, also `npm run stats`) and the lead's
// stored texts (lib/leads/compose.ts). Plain JavaScript: scripts import it too.

/** The characters a spreadsheet reads as the start of a formula. */
const FORMULA_CHARACTERS = '=+\\-@\\t\\r'

/** A value that a spreadsheet would run as a formula. */
export const FORMULA_START = new RegExp(`^[${FORMULA_CHARACTERS}]`)

/** Such a character right after a separator or line break inside a value (`$1` is the separator). */
export const FORMULA_AFTER_SEPARATOR = new RegExp(`([;,\\t\\r\\n])(?=[${FORMULA_CHARACTERS}])`, 'g')

/** `value` as a spreadsheet reads text: with a leading apostrophe if it starts a formula. @param {string} value */
export function asSpreadsheetText(value) {
  return FORMULA_START.test(value) ? `'${value}` : value
}

import { REPORT_CSV_COLUMNS, type ReportRow } from './report-schema'

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. A value a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe, as the
 * leads do (lib/leads/compose.ts, OWASP "CSV Injection"): campaign values come from visitors.
 */
export function csvField(value: string | number): string {
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The report's rows as CSV with a header row, lines ended by CRLF. */
export function reportCsv(rows: readonly ReportRow[]): string {
  const lines = [REPORT_CSV_COLUMNS.join(',')]
  for (const row of rows) {
    lines.push(REPORT_CSV_COLUMNS.map((column) => csvField(row[column])).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}

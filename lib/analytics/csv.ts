import type { ReportGroup, ReportRow } from './report-schema'
import { csvField as field, reportCsv as csv } from './csv.mjs'

// The CSV for a pt-BR spreadsheet lives in csv.mjs, shared with `npm run stats`.

export { CSV_BOM, CSV_SEPARATOR } from './csv.mjs'

/** One cell, made harmless for a spreadsheet. */
export function csvField(value: string | number | null | undefined): string {
  return field(value)
}

/** The report's rows as a pt-BR CSV: ';', decimal comma, UTF-8 BOM, CRLF. */
export function reportCsv(rows: readonly ReportRow[], by: ReportGroup = 'page'): string {
  return csv(rows as unknown as Record<string, unknown>[], by)
}

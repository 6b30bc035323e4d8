// The CSV for a pt-BR spreadsheet (';', decimal comma, UTF-8 BOM, CRLF) lives in csv.mjs, shared
// with `npm run stats`.
export { reportCsv } from './csv.mjs'

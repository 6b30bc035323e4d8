#!/usr/bin/env node
// `npm run stats`: the visit figures in the terminal, as the Studio's Desempenho tool shows them
// (docs/analytics.md): visits, daily unique visitors, leads, conversion and materials' downloads by
// page, campaign and source, and the downloads by material, for the last 30 days unless told
// otherwise. The same query as GET /api/analytics
// (lib/analytics/report-db.mjs), read as the role analytics_reader.
//
//   npm run stats                                  # last 30 days, the three tables
//   npm run stats -- --days 7                      # last 7 days
//   npm run stats -- --from 2026-11-01 --to 2026-11-30 --by day
//   npm run stats -- --csv --by campaign           # one table as CSV
//   npm run stats -- --by material                 # downloads per material
//   npm run stats -- --json                        # the reports as JSON
//
// Reads the embedded store (a copy of the PGlite in LEADS_DATA_DIR, default .data/leads: the live
// folder may belong to a running server) or, with ANALYTICS_DATABASE_URL or DATABASE_URL set, that
// PostgreSQL database.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

import { cliIo, parsedOrUsage, runIfMain } from './lib/cli-io.mjs'
import { reportCsv } from '../lib/analytics/csv.mjs'
import { SITE_TIME_ZONE, siteDay } from '../lib/site-time.mjs'
import { KEY_COLUMNS, measuresOf, REPORT_GROUP_NAMES } from '../lib/analytics/measures.mjs'
import { VITAL_SPECS } from '../lib/analytics/vitals.mjs'
import { queryReport } from '../lib/analytics/report-db.mjs'
import { openPglite } from '../lib/leads/db.mjs'
import { openPostgres } from '../lib/leads/postgres.mjs'

const GROUPS = REPORT_GROUP_NAMES
const TITLES = Object.fromEntries(
  Object.entries(KEY_COLUMNS).map(([by, label]) => [by, `Por ${label.toLowerCase()}`]),
)

/** A usage mistake: its message is printed and the exit code is 2. */
class UsageError extends Error {}

/**
 * The command itself, callable in-process (the tests do; `node scripts/stats.mjs` below).
 * @param {string[]} argv the arguments after the script's name
 * @param {import('./lib/cli-io.mjs').CliIo} [io]
 * @returns {Promise<number>} the exit code
 */
export async function main(argv, io = {}) {
  try {
    return await run(argv, io)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    ;(io.stderr ?? process.stderr).write(`${error.message}\n`)
    return 2
  }
}

/** @param {string[]} argv @param {NonNullable<Parameters<typeof main>[1]>} io */
async function run(argv, io) {
  const { env, cwd, stdout, out, err } = cliIo(io)

  const parsed = parsedOrUsage(() =>
    parseArgs({
      args: argv,
      options: {
        days: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        by: { type: 'string', multiple: true },
        path: { type: 'string' },
        csv: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }),
  )
  if (typeof parsed === 'string') {
    err(parsed)
    return 2
  }
  const { values } = parsed
  if (values.help) {
    out(
      `Usage: npm run stats [-- --days N | --from AAAA-MM-DD --to AAAA-MM-DD] [--by ${GROUPS.join('|')}] [--path /p/x] [--csv | --json]`,
    )
    return 0
  }

  /** @param {string} message */
  function fail(message) {
    throw new UsageError(message)
  }

  /** A real calendar day written AAAA-MM-DD (2026-02-30 is not). */
  const isDate = (value) =>
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    new Date(Date.parse(`${value}T00:00:00Z`) || 0).toISOString().slice(0, 10) === value
  for (const option of /** @type {const} */ (['from', 'to']))
    if (values[option] !== undefined && !isDate(values[option]))
      fail(
        `--${option} deve ser uma data AAAA-MM-DD (por exemplo 2026-11-01), não "${values[option]}".`,
      )

  const days = values.days === undefined ? 30 : Number(values.days)
  if (!Number.isInteger(days) || days < 1 || days > 400)
    fail(`--days deve ser um número inteiro de 1 a 400, não "${values.days}".`)
  const to = values.to ?? siteDay(Date.now())
  const from = values.from ?? siteDay(Date.parse(`${to}T12:00:00Z`) - (days - 1) * 86_400_000)
  if (from > to) fail(`--from (${from}) deve vir antes de --to (${to}), ou ser o mesmo dia.`)
  // By default, one table per reported dimension (measures.mjs); the days only with --by day.
  const groups = values.by ?? GROUPS.filter((group) => group !== 'day')
  for (const by of groups)
    if (!GROUPS.includes(by)) fail(`--by deve ser um destes: ${GROUPS.join(', ')}; não "${by}".`)
  if (values.csv && groups.length !== 1) fail('Com --csv, escolha uma tabela com --by.')

  async function withDatabase(fn) {
    const url = env.ANALYTICS_DATABASE_URL?.trim() || env.DATABASE_URL?.trim()
    if (url) {
      const db = await openPostgres(url)
      try {
        return await fn(db, 'PostgreSQL')
      } finally {
        await db.close()
      }
    }
    const dataDir = path.resolve(cwd, env.LEADS_DATA_DIR?.trim() || '.data/leads')
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return fn(undefined, dataDir)
    const snapshot = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-stats-'))
    try {
      const copy = path.join(snapshot, 'data')
      fs.cpSync(dataDir, copy, { recursive: true })
      const db = await openPglite(copy)
      try {
        const ready = await db.query(`select to_regclass('analytics.daily_counts') as t`)
        return await fn(ready.rows[0]?.t ? db : undefined, `embedded store ${dataDir}`)
      } finally {
        await db.close()
      }
    } finally {
      fs.rmSync(snapshot, { recursive: true, force: true })
    }
  }

  const percent = (value) =>
    `${(value * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`

  /** One measure as the terminal shows it (the kinds of measures.mjs). */
  function shown(spec, row) {
    const value = row[spec.name]
    if (spec.kind === 'ratio') return percent(value)
    if (value === null || value === undefined) return '—'
    if (spec.kind === 'seconds') return `${Math.round(value)} s`
    if (spec.kind === 'percent') return `${Math.round(value)}%`
    return String(value)
  }

  /** A page's p75 of one web vital (vitals.mjs), e.g. "2436 ms". */
  function shownVital(spec, row) {
    const value = row[spec.field]
    if (value === null || value === undefined) return '—'
    return `${value.toLocaleString('pt-BR', { minimumFractionDigits: spec.decimals })}${spec.unit ? ` ${spec.unit}` : ''}`
  }

  function printTable(report) {
    const measures = measuresOf(report.by)
    const vitals = report.by === 'page' ? VITAL_SPECS : []
    const header = [
      report.by === 'day' ? 'dia' : 'chave',
      ...measures.map((s) => s.short),
      ...vitals.map((s) => `${s.name} p75`),
    ]
    const lines = report.rows.map((row) => [
      row.key,
      ...measures.map((s) => shown(s, row)),
      ...vitals.map((s) => shownVital(s, row)),
    ])
    const widths = header.map((title, i) =>
      Math.max(title.length, ...lines.map((line) => line[i].length)),
    )
    const format = (cells) =>
      cells
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
        .join('  ')
    out(`${TITLES[report.by]} (${report.from} a ${report.to})`)
    out(format(header))
    out(widths.map((width) => '-'.repeat(width)).join('  '))
    if (lines.length === 0) out('(nada registrado no período)')
    for (const line of lines) out(format(line))
    out('')
  }

  try {
    await withDatabase(async (db, source) => {
      if (!db) {
        out(`Nenhuma visita contada ainda (${source} não tem as tabelas de visitas).`)
        return
      }
      const reports = []
      for (const by of groups)
        reports.push(
          await queryReport(db, { from, to, by, ...(values.path ? { path: values.path } : {}) }),
        )
      if (values.json) out(JSON.stringify(reports, null, 2))
      else if (values.csv) stdout.write(reportCsv(reports[0].rows, reports[0].by))
      else {
        out(`Visitas e leads de ${source}; dias em ${SITE_TIME_ZONE}.\n`)
        for (const report of reports) printTable(report)
      }
    })
  } catch (error) {
    err('Não foi possível ler as visitas:', error instanceof Error ? error.message : error)
    return 1
  }
  return 0
}

await runIfMain(import.meta.url, main)

#!/usr/bin/env node
// `npm run leads`: the demo requests stored so far, newest first.
//
// Reads the embedded store (PGlite in LEADS_DATA_DIR, default .data/leads) or, when DATABASE_URL
// is set, that PostgreSQL database (a Supabase project's connection string works). It reads as the
// database owner: the anon role the site writes with cannot read.
//
//   npm run leads                 # all requests, as text
//   npm run leads -- --limit 10   # the ten newest
//   npm run leads -- --json       # one JSON array, for scripts
//   npm run leads -- --materials  # the materials' conversions (e-books, checklists), not demo requests
//   npm run leads -- --deliveries # the e-mail/webhook/RD Station deliveries not delivered (docs/leads.md)
//   npm run leads -- --disable rdstation  # switch a destination off, giving up what waits for it
//   npm run leads -- --retry-failed       # send the failed deliveries again, copied from their leads
//                                         # and materials' conversions, to destinations that are on
//
// The two that write open the database itself, not a copy: on the embedded store, stop the server
// first (the folder's lock says which process holds it).
//
// The live PGlite folder may belong to a running `next dev`/`next start`, and PGlite has no
// multi-process access, so the script reads a copy of it and never opens the original.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

import { cliIo, parsedOrUsage, runIfMain } from './lib/cli-io.mjs'
import { openPglite } from '../lib/leads/db.mjs'
import {
  deliveryStats,
  disableDestination,
  failedWhileOff,
  retryFailed,
} from '../lib/leads/delivery/queue.mjs'
import { openPostgres } from '../lib/leads/postgres.mjs'

// Each request is its dados_cliente row and the contact_form chat_messages row written right after
// it for the same name and phone. A request whose second insert failed shows without the latter.
const REQUESTS_SQL = `
  select d.created_at, d.nomewpp, d.telefone, d.atendimento_ia,
         m.user_message, m.created_at as message_created_at
  from public.dados_cliente d
  left join lateral (
    select c.user_message, c.created_at
    from public.chat_messages c
    where c.message_type = 'contact_form'
      and c.nomewpp = d.nomewpp
      and c.phone is not distinct from d.telefone
      and c.created_at >= d.created_at
      and c.created_at < d.created_at + interval '1 minute'
    order by c.created_at
    limit 1
  ) m on true
  order by d.created_at desc
  limit $1
`

// The deliveries not delivered, oldest first (lib/leads/delivery, supabase/migrations/*_lead_delivery.sql).
const DELIVERIES_SQL = `
  select lead_uid as uid, false as material, destination, status, attempts, created_at,
         next_attempt_at, last_error
  from lead_delivery.deliveries
  where status <> 'delivered'
  order by created_at
  limit $1
`
// The same with materials' conversions (supabase/migrations/*_material_deliveries.sql), whose
// deliveries point at conversao_uid instead.
const DELIVERIES_WITH_MATERIALS_SQL = `
  select coalesce(lead_uid, conversao_uid) as uid, conversao_uid is not null as material,
         destination, status, attempts, created_at, next_attempt_at, last_error
  from lead_delivery.deliveries
  where status <> 'delivered'
  order by created_at
  limit $1
`

// Materials' conversions (issue 65), newest first: who took which material, from where.
const MATERIALS_SQL = `
  select created_at, material, identificador, titulo_material, nome, email, telefone,
         dados_formulario ->> 'company' as empresa, consentimento_email, avisar_comercial,
         origem_pagina
  from public.conversoes_material
  order by created_at desc
  limit $1
`

/**
 * The command itself, callable in-process (the tests do; `node scripts/leads.mjs` below).
 * @param {string[]} argv the arguments after the script's name
 * @param {import('./lib/cli-io.mjs').CliIo} [io]
 * @returns {Promise<number>} the exit code
 */
export async function main(argv, io = {}) {
  const { env, cwd, out, err } = cliIo(io)

  const parsed = parsedOrUsage(() =>
    parseArgs({
      args: argv,
      options: {
        limit: { type: 'string' },
        json: { type: 'boolean', default: false },
        deliveries: { type: 'boolean', default: false },
        materials: { type: 'boolean', default: false },
        disable: { type: 'string' },
        'retry-failed': { type: 'boolean', default: false },
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
      'Usage: npm run leads [-- --limit N] [-- --json] [-- --deliveries | --materials]\n' +
        '       npm run leads -- --disable <destination>\n' +
        '       npm run leads -- --retry-failed',
    )
    return 0
  }
  const limit = values.limit === undefined ? null : Number(values.limit)
  if (limit !== null && (!Number.isInteger(limit) || limit < 1)) {
    err(`--limit deve ser um número inteiro positivo (1, 2, 3…), não "${values.limit}".`)
    return 2
  }

  /** @param {import('../lib/leads/db.mjs').Database} db */
  async function readAll(db) {
    const materials = Boolean(
      (await db.query(`select to_regclass('public.conversoes_material') as t`)).rows[0]?.t,
    )
    if (values.materials)
      return { rows: [], materials: materials ? (await db.query(MATERIALS_SQL, [limit])).rows : [] }
    const queue = await db.query(`select to_regclass('lead_delivery.deliveries') as t`)
    if (!queue.rows[0]?.t) return { rows: (await db.query(REQUESTS_SQL, [limit])).rows }
    return {
      rows: values.deliveries ? [] : (await db.query(REQUESTS_SQL, [limit])).rows,
      stats: await deliveryStats(db, { asRole: false }),
      deliveries: values.deliveries
        ? (await db.query(materials ? DELIVERIES_WITH_MATERIALS_SQL : DELIVERIES_SQL, [limit])).rows
        : [],
    }
  }

  async function readRequests() {
    const databaseUrl = env.DATABASE_URL?.trim()
    if (databaseUrl) {
      const db = await openPostgres(databaseUrl)
      try {
        return { source: 'DATABASE_URL', ...(await readAll(db)) }
      } finally {
        await db.close()
      }
    }

    const dataDir = path.resolve(cwd, env.LEADS_DATA_DIR?.trim() || '.data/leads')
    const relative = path.relative(cwd, dataDir)
    const source = `embedded store ${relative && !relative.startsWith('..') ? relative : dataDir}`
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return { source, rows: [], missing: true }

    const snapshot = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-leads-'))
    const copy = path.join(snapshot, 'data')
    try {
      fs.cpSync(dataDir, copy, { recursive: true })
      const db = await openPglite(copy)
      try {
        const tables = await db.query(`select to_regclass('public.dados_cliente') as t`)
        if (!tables.rows[0]?.t) return { source, rows: [], missing: true }
        return { source, ...(await readAll(db)) }
      } finally {
        await db.close()
      }
    } finally {
      fs.rmSync(snapshot, { recursive: true, force: true })
    }
  }

  /** @param {unknown} value */
  function iso(value) {
    return value instanceof Date ? value.toISOString() : value == null ? null : String(value)
  }

  /**
   * @param {import('../lib/leads/delivery/queue.mjs').DestinationStats[]} stats
   */
  function deliverySummary(stats) {
    if (stats.length === 0)
      return 'Deliveries: none queued (no e-mail, webhook or RD Station configured).'
    const parts = stats.map(
      (row) =>
        `${row.destination} ${row.delivered} delivered, ${row.pending} pending` +
        (row.oldestPendingSeconds === null ? '' : ` (oldest ${age(row.oldestPendingSeconds)})`) +
        `, ${row.failed} failed` +
        (row.pending > 0 && !row.sent ? ' (no running instance sends to it)' : ''),
    )
    return `Deliveries: ${parts.join('; ')}.`
  }

  /** @param {number} seconds */
  function age(seconds) {
    if (seconds < 120) return `${seconds} s`
    if (seconds < 7200) return `${Math.round(seconds / 60)} min`
    return `${Math.round(seconds / 3600)} h`
  }

  /** @param {Record<string, unknown>[]} rows @param {import('../lib/leads/delivery/queue.mjs').DestinationStats[]} stats */
  function printDeliveries(rows, stats) {
    if (values.json) {
      out(
        JSON.stringify(
          {
            summary: stats,
            deliveries: rows.map((row) => ({
              kind: row.material === true ? 'material' : 'demo',
              // The lead's id, or the material conversion's (kind says which).
              lead: row.uid,
              destination: row.destination,
              status: row.status,
              attempts: row.attempts,
              createdAt: iso(row.created_at),
              nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
              lastError: row.last_error,
            })),
          },
          null,
          2,
        ),
      )
      return
    }
    out(deliverySummary(stats))
    for (const row of rows) {
      out(
        `${iso(row.created_at)}  ${row.material === true ? 'material conversion' : 'lead'} ${row.uid}  ${row.destination}  ${row.status}, ` +
          `${row.attempts} attempt(s)` +
          (row.status === 'pending' ? `, next ${iso(row.next_attempt_at)}` : '') +
          (row.last_error ? `, last error: ${row.last_error}` : ''),
      )
    }
  }

  /** The database itself (not a copy), for the commands that change the queue. */
  async function openForWriting() {
    const databaseUrl = env.DATABASE_URL?.trim()
    if (databaseUrl) return openPostgres(databaseUrl)
    const dataDir = path.resolve(cwd, env.LEADS_DATA_DIR?.trim() || '.data/leads')
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION')))
      throw new Error(
        `nenhum armazenamento embutido em ${dataDir}. Aponte LEADS_DATA_DIR para a pasta dele ` +
          'ou DATABASE_URL para o PostgreSQL.',
      )
    return openPglite(dataDir)
  }

  if (values.disable !== undefined || values['retry-failed']) {
    try {
      const db = await openForWriting()
      try {
        const queue = await db.query(`select to_regclass('lead_delivery.destinations') as t`)
        if (!queue.rows[0]?.t)
          throw new Error(
            'este banco não tem a fila de entregas (lead_delivery): nenhum destino para desligar ' +
              'nem entrega para reenviar. Um servidor com as migrações atuais a cria ao iniciar.',
          )
        if (values.disable !== undefined) {
          const given = await disableDestination(db, values.disable)
          out(
            `${values.disable} is off: no lead is queued for it from now on` +
              (given > 0 ? `; ${given} waiting delivery(ies) given up.` : '.') +
              ' An instance with its settings switches it on again when it starts.',
          )
        }
        if (values['retry-failed']) {
          const again = await retryFailed(db)
          out(`${again} failed delivery(ies) queued again.`)
          // What --disable gave up stays given up until an instance switches its destination on.
          const off = await failedWhileOff(db)
          if (off.length > 0)
            out(
              `Left failed: ${off.map((row) => `${row.failed} to ${row.destination}`).join(', ')}, ` +
                'switched off (--disable). An instance with its settings switches it on when it ' +
                'starts; then run --retry-failed again.',
            )
        }
      } finally {
        await db.close()
      }
      return 0
    } catch (error) {
      err('Não foi possível alterar as entregas:', error instanceof Error ? error.message : error)
      return 1
    }
  }

  /** @param {Record<string, unknown>[]} rows @param {string} source */
  function printMaterials(rows, source) {
    const conversions = rows.map((row) => ({
      createdAt: iso(row.created_at),
      material: row.material,
      identifier: row.identificador,
      title: row.titulo_material,
      name: row.nome,
      email: row.email,
      phone: row.telefone,
      company: row.empresa,
      emailConsent: row.consentimento_email === true,
      salesNotified: row.avisar_comercial === true,
      page: row.origem_pagina,
    }))
    if (values.json) {
      out(JSON.stringify(conversions, null, 2))
      return
    }
    if (conversions.length === 0) {
      out(`No material conversions in ${source}.`)
      return
    }
    out(
      `${conversions.length} material conversion${conversions.length === 1 ? '' : 's'} from ${source}, newest first:\n`,
    )
    for (const one of conversions) {
      out(
        `${one.createdAt}  ${one.identifier}  ${one.name}  ${one.email}  ${one.phone ?? '(sem telefone)'}`,
      )
      out(
        `  ${one.title ?? one.material}; empresa: ${one.company ?? '-'}; e-mails de marketing: ` +
          `${one.emailConsent ? 'aceitou' : 'não aceitou'}; comercial avisado: ${one.salesNotified ? 'sim' : 'não'}`,
      )
    }
  }

  try {
    const { source, rows, missing, stats, deliveries, materials } = await readRequests()
    if (values.deliveries) {
      printDeliveries(deliveries ?? [], stats ?? [])
      return 0
    }
    if (values.materials) {
      printMaterials(materials ?? [], source)
      return 0
    }
    const requests = rows.map((row) => ({
      createdAt: iso(row.created_at),
      nomewpp: row.nomewpp,
      telefone: row.telefone,
      atendimento_ia: row.atendimento_ia,
      chatMessage:
        row.user_message == null
          ? null
          : { createdAt: iso(row.message_created_at), user_message: row.user_message },
    }))

    if (values.json) {
      out(JSON.stringify(requests, null, 2))
    } else if (requests.length === 0) {
      out(missing ? `No demo requests yet (${source} has none).` : `No demo requests in ${source}.`)
    } else {
      out(
        `${requests.length} demo request${requests.length === 1 ? '' : 's'} from ${source}, newest first:\n`,
      )
      for (const request of requests) {
        out(`${request.createdAt}  ${request.nomewpp}  ${request.telefone ?? '(sem telefone)'}`)
        out(`  dados_cliente.atendimento_ia: ${request.atendimento_ia}`)
        out(
          request.chatMessage
            ? `  chat_messages.user_message:   ${request.chatMessage.user_message}`
            : '  chat_messages: no contact_form row (the second insert failed?)',
        )
        out('')
      }
    }
    if (!values.json && stats) out(deliverySummary(stats))
  } catch (error) {
    err(
      'Não foi possível ler os pedidos de demonstração:',
      error instanceof Error ? error.message : error,
    )
    return 1
  }
  return 0
}

await runIfMain(import.meta.url, main)

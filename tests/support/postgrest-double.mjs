#!/usr/bin/env node
/**
 * PostgREST double: the part of Supabase's REST interface (PostgREST behind the API gateway) that
 * the site uses, so supabase-js runs unmodified against a local, migrated database.
 *
 * Start it:
 *   node tests/support/postgrest-double.mjs [--port 54321] [--host 127.0.0.1] [--anon-key KEY]
 *        [--database-url postgres://...] [--pglite-dir DIR] [--migrations-dir DIR]
 *   PGlite in memory unless --database-url (real PostgreSQL, through pg) or --pglite-dir (PGlite
 *   persisted there) is given. The migrations of supabase/migrations are applied at start. Prints
 *   "PostgREST double listening on http://HOST:PORT" once ready; then point the site at it with
 *   SUPABASE_URL=http://HOST:PORT SUPABASE_ANON_KEY=KEY (default key: "test-anon-key").
 * Or import it: `const double = await startPostgrestDouble({ port: 0 })`, then double.url,
 *   double.anonKey, double.close(), and the same controls as functions (see the return value).
 *
 * The REST interface:
 *   POST /rest/v1/:table  JSON object or array body. `apikey` must equal the anon key (else 401
 *     "Invalid API key", as Supabase's gateway answers); `Authorization: Bearer <anon key>` must be
 *     present and equal too (else 401 PGRST301, as PostgREST answers a bad JWT). The insert runs as
 *     role anon in a transaction, through json_populate_recordset as PostgREST does, so the
 *     migration's grants and policies decide. Prefer: return=minimal (the default) answers 201
 *     with an empty body; return=representation answers 201 with the rows (anon may not read, so
 *     with our grants it fails with 42501). Errors are PostgREST's JSON {code, message, details,
 *     hint} with PostgREST's status mapping: 42501 -> 401 (the request is anonymous, so not 403),
 *     23503/23505 -> 409, 42P01 -> 404, 08* and 53* -> 503, other 2x/42x -> 400, other server-side
 *     classes -> 500. Unknown table -> 404 PGRST205, unknown column -> 400 PGRST204, bad JSON ->
 *     400 PGRST102, Content-Profile other than public -> 406 PGRST106.
 *   GET /rest/v1/:table?select=cols  runs the select as anon (no filters supported): with our grants
    it fails with 42501, which is the point.
  Other methods and paths -> 404/405 JSON errors. No CORS: the site calls it from the server only.
 *
 * Test controls (no auth; bind to localhost only):
 *   POST /__control  {"failTable": "dados_cliente"|"chat_messages"|null,
 *                     "mode": "error"|"500"|"hang"|null, "status"?: number, "code"?: string}
 *     Until changed, inserts into failTable do not touch the database and instead:
 *       error: answer `status` (default 400) with PostgREST JSON {code: `code` (default "23514"), ...}
 *       500:   answer 500 with a plain-text body, as a failing gateway does (no JSON, no code)
 *       hang:  never answer (the connection stays open until the client gives up or close())
 *       hang-after-commit: run the insert (it commits) and then never answer, as when the
 *              answer is lost after the database committed (a retry must not store it twice)
 *     {"failTable": null} or {"mode": null} turns forcing off. Answers the current control.
 *   GET  /__control        the current control.
 *   GET  /__rows/:table    the table's rows, read as the owner role, oldest first.
 *   GET  /__requests       the log of REST requests received, oldest first: {table, method,
 *                          query, hasApikey, hasAuthorization, authorized, prefer, status,
 *                          outcome: 'inserted'|'rejected'|'unauthorized'|'forced-error'|
 *                          'forced-500'|'hang'|'selected'|'bad-request', at}. No bodies.
 *   POST /__reset          truncates dados_cliente, chat_messages and conversoes_material (their deliveries too), clears the log and the control.
 *   GET  /__health         {"ok": true}.
 */

import http from 'node:http'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

import { applyMigrations, openPglite, queryAsAnon } from '../../lib/leads/db.mjs'
import { openPostgres } from '../../lib/leads/postgres.mjs'

export const DEFAULT_ANON_KEY = 'test-anon-key'
// Materials' conversions (issue 65) are written through the same REST interface.
const LEAD_TABLES = ['dados_cliente', 'chat_messages', 'conversoes_material']
const MAX_BODY_BYTES = 1024 * 1024
const here = path.dirname(fileURLToPath(import.meta.url))

/**
 * @typedef {{ failTable: string | null, mode: 'error' | '500' | 'hang' | 'hang-after-commit' | null, status?: number, code?: string }} Control
 * @typedef {{ table: string, method: string, query: string, hasApikey: boolean, hasAuthorization: boolean,
 *   authorized: boolean, prefer: string | null, status: number | null, outcome: string, at: string }} RequestLogEntry
 */

/** PostgREST's HTTP status for a PostgreSQL SQLSTATE (docs.postgrest.org, references/errors). */
export function statusForSqlState(code) {
  if (code === '42501') return 401 // "if authenticated 403, else 401"; the anon key is not authenticated
  if (code === '23503' || code === '23505') return 409
  if (code === '25006') return 405
  if (code === '42883' || code === '42P01') return 404
  if (code === 'P0001') return 400
  if (code === '53400') return 500
  if (code === '54000' || code.startsWith('54')) return 413
  const prefix = code.slice(0, 2)
  if (prefix === '08' || prefix === '53') return 503
  if (prefix === '0L' || prefix === '0P' || prefix === '28') return 403
  if (
    ['09', '25', '2D', '38', '39', '3B', '40', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(
      prefix,
    )
  )
    return 500
  return 400
}

/** @param {string} name */
function quoteIdent(name) {
  return `"${name.replaceAll('"', '""')}"`
}

/**
 * @param {{ port?: number, host?: string, anonKey?: string, databaseUrl?: string, pgliteDir?: string,
 *   migrationsDir?: string }} [options]
 */
export async function startPostgrestDouble(options = {}) {
  const {
    port = 0,
    host = '127.0.0.1',
    anonKey = DEFAULT_ANON_KEY,
    databaseUrl,
    pgliteDir,
    migrationsDir = path.resolve(here, '..', '..', 'supabase', 'migrations'),
  } = options

  const db = databaseUrl ? await openPostgres(databaseUrl) : await openPglite(pgliteDir)
  try {
    await applyMigrations(db, migrationsDir)
  } catch (error) {
    await db.close()
    throw error
  }

  /** @type {Control} */
  let control = { failTable: null, mode: null }
  /** @type {RequestLogEntry[]} */
  let requests = []
  /** @type {Set<http.ServerResponse>} */
  const hanging = new Set()

  /** @param {string} table */
  async function tableColumns(table) {
    const { rows } = await db.query(
      `select column_name from information_schema.columns
       where table_schema = 'public' and table_name = $1 order by ordinal_position`,
      [table],
    )
    return rows.map((row) => String(row.column_name))
  }

  async function reset() {
    // cascade: each lead's deliveries point at it (lead_delivery.deliveries, ON DELETE CASCADE).
    await db.exec(
      `truncate ${LEAD_TABLES.map((t) => `public.${t}`).join(', ')} restart identity cascade`,
    )
    requests = []
    control = { failTable: null, mode: null }
  }

  /** @param {string} table */
  async function rows(table) {
    const columns = await tableColumns(table)
    if (columns.length === 0) return null
    const order = columns.includes('id') ? ' order by id' : ''
    return (await db.query(`select * from public.${quoteIdent(table)}${order}`)).rows
  }

  /** @param {Partial<Control>} next */
  function setControl(next) {
    const mode = next.mode ?? null
    const failTable = next.failTable ?? null
    if (mode !== null && !['error', '500', 'hang', 'hang-after-commit'].includes(mode))
      throw new Error(`Unknown mode ${mode}`)
    if (failTable !== null && typeof failTable !== 'string')
      throw new Error('failTable must be a table name')
    control =
      mode === null || failTable === null
        ? { failTable: null, mode: null }
        : {
            failTable,
            mode,
            ...(next.status !== undefined ? { status: Number(next.status) } : {}),
            ...(next.code !== undefined ? { code: String(next.code) } : {}),
          }
    return control
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent)
        sendJson(res, 500, pgrstError('PGRST000', String(error?.message ?? error)))
      else res.destroy()
    })
  })

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   */
  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://double')
    const segments = url.pathname.split('/').filter(Boolean)

    if (segments[0]?.startsWith('__')) return handleControl(req, res, segments)

    if (segments[0] !== 'rest' || segments[1] !== 'v1' || segments.length !== 3) {
      return sendJson(res, 404, pgrstError('PGRST125', `Invalid path specified in request URL`))
    }
    const table = decodeURIComponent(segments[2] ?? '')
    const apikey = header(req, 'apikey')
    const authorization = header(req, 'authorization')
    const prefer = header(req, 'prefer')
    /** @type {RequestLogEntry} */
    const entry = {
      table,
      method: req.method ?? '',
      query: url.search,
      hasApikey: apikey !== null,
      hasAuthorization: authorization !== null,
      authorized: apikey === anonKey && authorization === `Bearer ${anonKey}`,
      prefer,
      status: null,
      outcome: 'bad-request',
      at: new Date().toISOString(),
    }
    requests.push(entry)
    /** @param {number} status @param {string} outcome @param {unknown} [body] */
    const answer = (status, outcome, body) => {
      entry.status = status
      entry.outcome = outcome
      if (body === undefined) {
        res.writeHead(status, { 'content-range': '*/*' }).end()
      } else sendJson(res, status, body)
    }

    if (apikey !== anonKey) {
      return answer(401, 'unauthorized', {
        message: 'Invalid API key',
        hint: 'Double check your Supabase `anon` or `service_role` API key.',
      })
    }
    if (authorization !== `Bearer ${anonKey}`) {
      return answer(
        401,
        'unauthorized',
        pgrstError('PGRST301', 'No suitable key or wrong key type'),
      )
    }
    if (req.method === 'GET') return select(table, url, answer)
    if (req.method !== 'POST') {
      return answer(
        405,
        'bad-request',
        pgrstError('PGRST117', `Unsupported HTTP method: ${req.method}`),
      )
    }
    const profile = header(req, 'content-profile')
    if (profile !== null && profile !== 'public') {
      return answer(
        406,
        'bad-request',
        pgrstError('PGRST106', 'The schema must be one of the following: public'),
      )
    }
    if (!(header(req, 'content-type') ?? '').startsWith('application/json')) {
      return answer(415, 'bad-request', pgrstError('PGRST107', 'The Content-Type is not supported'))
    }

    const raw = await readBody(req)
    if (raw === null)
      return answer(413, 'bad-request', pgrstError('PGRST102', 'Request body too large'))

    const hangAfterCommit = control.mode === 'hang-after-commit' && control.failTable === table
    if (control.mode !== null && control.failTable === table && !hangAfterCommit) {
      if (control.mode === 'hang') {
        entry.outcome = 'hang'
        hanging.add(res)
        res.on('close', () => hanging.delete(res))
        return
      }
      if (control.mode === '500') {
        entry.status = 500
        entry.outcome = 'forced-500'
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error')
        return
      }
      return answer(control.status ?? 400, 'forced-error', {
        code: control.code ?? '23514',
        message: `new row for relation "${table}" violates check constraint "forced_by_postgrest_double"`,
        details: null,
        hint: null,
      })
    }

    let body
    try {
      body = JSON.parse(raw)
    } catch {
      return answer(400, 'bad-request', pgrstError('PGRST102', 'Empty or invalid json'))
    }
    const records = Array.isArray(body) ? body : [body]
    if (
      records.some(
        (record) => record === null || typeof record !== 'object' || Array.isArray(record),
      )
    ) {
      return answer(400, 'bad-request', pgrstError('PGRST102', 'All object keys must match'))
    }

    const known = await tableColumns(table)
    if (known.length === 0) return answer(404, 'bad-request', unknownTableError(table))
    // supabase-js names the columns of an array body in ?columns=; a single object names its own.
    const columnsParam = url.searchParams.get('columns')
    const columns = columnsParam
      ? columnsParam.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'))
      : [...new Set(records.flatMap((record) => Object.keys(record)))]
    const unknown = columns.find((column) => !known.includes(column))
    if (unknown !== undefined) {
      return answer(
        400,
        'bad-request',
        pgrstError(
          'PGRST204',
          `Could not find the '${unknown}' column of '${table}' in the schema cache`,
        ),
      )
    }
    if (records.length === 0 || columns.length === 0) return answer(201, 'inserted')

    const representation = /return=representation/.test(prefer ?? '')
    const list = columns.map(quoteIdent).join(', ')
    const sql =
      `insert into public.${quoteIdent(table)} (${list}) ` +
      `select ${list} from json_populate_recordset(null::public.${quoteIdent(table)}, $1::json)` +
      (representation ? ' returning *' : '')
    try {
      const result = await queryAsAnon(db, sql, [JSON.stringify(records)])
      if (hangAfterCommit) {
        entry.outcome = 'inserted-then-hang'
        hanging.add(res)
        res.on('close', () => hanging.delete(res))
        return
      }
      return answer(201, 'inserted', representation ? result.rows : undefined)
    } catch (error) {
      const body = postgresErrorBody(error)
      return answer(statusForSqlState(body.code), 'rejected', body)
    }
  }

  /**
   * GET /rest/v1/:table?select=..., as anon: enough to show that the anon key cannot read.
   * @param {string} table
   * @param {URL} url
   * @param {(status: number, outcome: string, body?: unknown) => void} answer
   */
  async function select(table, url, answer) {
    const known = await tableColumns(table)
    if (known.length === 0) return answer(404, 'bad-request', unknownTableError(table))
    const extra = [...url.searchParams.keys()].find((key) => key !== 'select')
    if (extra !== undefined) {
      return answer(
        400,
        'bad-request',
        pgrstError('PGRST100', `The double does not support the query parameter ${extra}`),
      )
    }
    const wanted = (url.searchParams.get('select') ?? '*').split(',').map((c) => c.trim())
    const unknown = wanted.find((column) => column !== '*' && !known.includes(column))
    if (unknown !== undefined) {
      return answer(
        400,
        'bad-request',
        pgrstError('42703', `column ${table}.${unknown} does not exist`),
      )
    }
    const list = wanted.map((column) => (column === '*' ? '*' : quoteIdent(column))).join(', ')
    try {
      const result = await queryAsAnon(db, `select ${list} from public.${quoteIdent(table)}`)
      return answer(200, 'selected', result.rows)
    } catch (error) {
      const body = postgresErrorBody(error)
      return answer(statusForSqlState(body.code), 'rejected', body)
    }
  }

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   * @param {string[]} segments
   */
  async function handleControl(req, res, segments) {
    const [name, arg] = segments
    if (name === '__health') return sendJson(res, 200, { ok: true })
    if (name === '__control' && req.method === 'GET') return sendJson(res, 200, control)
    if (name === '__control' && req.method === 'POST') {
      try {
        return sendJson(res, 200, setControl(JSON.parse((await readBody(req)) || '{}')))
      } catch (error) {
        return sendJson(res, 400, { message: String(/** @type {Error} */ (error).message) })
      }
    }
    if (name === '__rows' && req.method === 'GET' && arg) {
      const found = await rows(decodeURIComponent(arg))
      return found === null
        ? sendJson(res, 404, { message: `No table ${arg}` })
        : sendJson(res, 200, found)
    }
    if (name === '__requests' && req.method === 'GET') return sendJson(res, 200, requests)
    if (name === '__reset' && req.method === 'POST') {
      await reset()
      return sendJson(res, 200, { ok: true })
    }
    return sendJson(res, 404, { message: `Unknown control ${req.method} /${segments.join('/')}` })
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve(undefined))
  })
  const address = /** @type {import('node:net').AddressInfo} */ (server.address())
  const baseUrl = `http://${host}:${address.port}`

  return {
    url: baseUrl,
    port: address.port,
    anonKey,
    /** The migrated database itself (owner role), for tests. */
    db,
    setControl,
    reset,
    rows,
    requests: () => requests.map((entry) => ({ ...entry })),
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(() => resolve(undefined)))
      await db.close()
    },
  }
}

/**
 * @param {http.IncomingMessage} req
 * @param {string} name
 */
function header(req, name) {
  const value = req.headers[name]
  if (value === undefined) return null
  return Array.isArray(value) ? value.join(', ') : value
}

/** PostgREST's JSON for an error PostgreSQL raised. @param {unknown} error */
function postgresErrorBody(error) {
  const e = /** @type {{ code?: string, message?: string, detail?: string, hint?: string }} */ (
    error
  )
  return {
    code: e.code ?? 'XX000',
    message: e.message ?? 'error',
    details: e.detail ?? null,
    hint: e.hint ?? null,
  }
}

/** @param {string} code @param {string} message */
/** PostgREST's answer for a table it does not know (both for inserts and selects). */
function unknownTableError(table) {
  return pgrstError('PGRST205', `Could not find the table 'public.${table}' in the schema cache`)
}

function pgrstError(code, message) {
  return { code, details: null, hint: null, message }
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
function sendJson(res, status, body) {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
    .end(JSON.stringify(body))
}

/**
 * @param {http.IncomingMessage} req
 * @returns {Promise<string | null>} null when larger than MAX_BODY_BYTES
 */
async function readBody(req) {
  const chunks = []
  let size = 0
  for await (const chunk of req) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const invokedDirectly =
  process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href
if (invokedDirectly) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '54321' },
      host: { type: 'string', default: '127.0.0.1' },
      'anon-key': { type: 'string', default: DEFAULT_ANON_KEY },
      'database-url': { type: 'string' },
      'pglite-dir': { type: 'string' },
      'migrations-dir': { type: 'string' },
    },
  })
  if (values['database-url'] && values['pglite-dir']) {
    console.error('Give --database-url or --pglite-dir, not both.')
    process.exit(2)
  }
  const double = await startPostgrestDouble({
    port: Number(values.port),
    host: values.host,
    anonKey: values['anon-key'],
    databaseUrl: values['database-url'],
    pgliteDir: values['pglite-dir'],
    migrationsDir: values['migrations-dir'],
  })
  const where = values['database-url']
    ? 'PostgreSQL'
    : values['pglite-dir']
      ? `PGlite in ${values['pglite-dir']}`
      : 'PGlite in memory'
  console.log(`PostgREST double listening on ${double.url} (${where})`)
  const stop = async () => {
    await double.close()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

#!/usr/bin/env node
/**
 * A small stand-in for the Sanity Content Lake's query API, so the site can be built and served
 * "against Sanity" without internet. Point the site at it with
 *   NEXT_PUBLIC_SANITY_PROJECT_ID=<anything> SANITY_API_HOST=http://127.0.0.1:<port>
 * (the client then calls <host>/v<apiVersion>/data/query/<dataset> instead of
 * https://<projectId>.api.sanity.io).
 *
 * Query API (what @sanity/client sends):
 *   GET  /v<apiVersion>/data/query/<dataset>?query=<GROQ>&$<param>=<JSON>&perspective=<p>
 *   POST /v<apiVersion>/data/query/<dataset>   body {"query": "...", "params": {...}}
 *        (the client switches to POST for long queries; perspective stays in the query string)
 *   -> 200 {"ms", "query", "result"} like the real API ("query" omitted with returnQuery=false),
 *      400 {"error": {...}} for a GROQ syntax error, 404 for another dataset.
 *   The query is evaluated with groq-js over an in-memory dataset.
 *
 *   Perspectives, as the Content Lake applies them:
 *   - absent or "published" (the default since API v2025-02-19): drafts.* and versions.* hidden;
 *   - "drafts" (or the deprecated "previewDrafts"): each draft replaces its published document,
 *     keeping the published _id and putting the draft id in _originalId;
 *   - "raw": every document as stored.
 *   Documents whose id has a dot (a non-root path: drafts.*, versions.*, review-links.*) are
 *   private in a Sanity dataset (https://www.sanity.io/docs/ids): only a request that sends
 *   "Authorization: Bearer <token>" with the double's token (--token, default "test-read-token")
 *   sees them; without it every perspective answers as if they did not exist, and a wrong token
 *   gets 401 like the real API.
 *
 *   Revisions: every document has a `_rev`, and every mutation that changes a document gives it a
 *   new random one, as the Content Lake does (the announcement bar keys a visitor's "closed" on it).
 *
 *   Eventual consistency: the Content Lake may answer a query with the state from before a
 *   mutation for a moment. With a consistency delay of N ms (--consistency-delay-ms, or
 *   POST /__consistency), a query sees every mutation only N ms after it was made; 0 (the
 *   default) is consistent at once.
 *
 * Image CDN (what the site's <img> URLs point at when SANITY_IMAGE_HOST is the double):
 *   GET  /images/<projectId>/<dataset>/<sha1>-<w>x<h>.<ext>?<transformations>
 *        -> the uploaded file as it is (no resizing: the transformations are only recorded in
 *           the URL the page renders), 404 for an unknown asset.
 *   The bundled dataset's `_sanityAsset` images are "imported" at start the way
 *   `sanity dataset import` does (lib/content/bundled-assets.mjs): each becomes an asset
 *   reference plus a sanity.imageAsset document with the id Sanity would give it.
 *
 * Control endpoints (tests only):
 *   POST /__mutate    body {"mutations": [...]} in Sanity's mutation format:
 *                     {"createOrReplace": doc}, {"createIfNotExists": doc}, {"delete": {"id"}},
 *                     {"patch": {"id", "set": {"dot.path": value}, "unset": ["dot.path"]}}
 *                     -> {"results": [{"id", "operation"}]}
 *   GET  /__requests  -> {"count", "requests": [{method, path, perspective, authorized, query, at}]}
 *                     (query API requests only)
 *   POST /__fail      body {"mode": "503" | "hang" | "none"}: every query answers 503, or is never
 *                     answered (held open until the mode changes, then dropped), or works again
 *   POST /v<apiVersion>/data/mutate/<dataset>  body {"mutations": [...]}: the real mutation API
 *                     (write token required), as @sanity/client's mutate() calls it
 *   POST /__consistency  body {"delayMs": N}: queries see each mutation N ms after it (0: at once)
 *   POST /__reset     restores the dataset the double started with (with its revisions), clears
 *                     the request log, the failure mode and the consistency delay (back to the
 *                     CLI's)
 *   GET  /__health    -> 200 "ok" (for Playwright's webServer.url)
 *
 * CLI:
 *   node tests/support/content-lake-double.mjs [--port 4010] [--host 127.0.0.1]
 *        [--file sanity/dataset/production.ndjson] [--dataset production]
 *        [--token test-read-token] [--project-id testproj] [--consistency-delay-ms 0]
 *        [--set <documentId>.<dot.path>=<string value>]... [--extra-articles N]
 *   --set changes a document before the first request, e.g. --set 'claim-accuracy.value=97,3%'
 *   so a build against the double is visibly different from the bundled default.
 *   --extra-articles N adds N published articles (extraArticles) for measurements at scale.
 *
 * Module:
 *   import { startContentLakeDouble } from './content-lake-double.mjs'
 *   const lake = await startContentLakeDouble({ port: 0, documents })
 *   lake.url; lake.mutate([...]); lake.requests(); lake.reset(); lake.consistencyDelay(ms);
 *   await lake.close()
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { evaluate, parse } from 'groq-js'

import { resolveBundledAssets } from '../../lib/content/bundled-assets.mjs'

const DEFAULT_TOKEN = 'test-read-token'
const IMAGE_PATH = /^\/images\/[^/]+\/[^/]+\/([0-9a-f]+-\d+x\d+\.[a-z]+)$/
const IMAGE_TYPES = { svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg' }

/**
 * Uploads the `_sanityAsset` images of an NDJSON export, as `sanity dataset import` would.
 * Returns the documents with asset references and asset documents, and the files by CDN name.
 * @param {LakeDocument[]} documents
 * @param {{datasetDir: string, baseUrl: string, projectId: string, dataset: string}} options
 */
export function importAssets(documents, { datasetDir, baseUrl, projectId, dataset }) {
  /** @type {Map<string, string>} */
  const imageFiles = new Map()
  const imported = resolveBundledAssets(documents, {
    datasetDir,
    assetUrl: ({ sha1, width, height, extension, file }) => {
      const name = `${sha1}-${width}x${height}.${extension}`
      imageFiles.set(name, file)
      return `${baseUrl}/images/${projectId}/${dataset}/${name}`
    },
  })
  return { documents: imported, imageFiles }
}
const QUERY_PATH = /^\/v(?:X|\d{4}-\d{2}-\d{2}|1)\/data\/query\/([^/]+)\/?$/
const MUTATE_PATH = /^\/v(?:X|\d{4}-\d{2}-\d{2}|1)\/data\/mutate\/([^/]+)\/?$/
const USERS_ME_PATH = /^\/v(?:X|\d{4}-\d{2}-\d{2}|1)\/users\/me\/?$/
/** How the query API fails on demand (POST /__fail): not at all, 503 at once, or never answering. */
const FAILURE_MODES = new Set(['none', '503', 'hang'])

/**
 * Parses an NDJSON export (the format `sanity dataset export` writes and `import` reads).
 * @param {string} text
 * @returns {LakeDocument[]}
 */
export function parseNdjson(text) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
}

/**
 * @param {string} file
 * @returns {LakeDocument[]}
 */
export function loadNdjson(file) {
  return parseNdjson(readFileSync(file, 'utf8'))
}

const isDraftId = (id) => id.startsWith('drafts.')
const isVersionId = (id) => id.startsWith('versions.')
/** A non-root path (an id with a dot): private, read only with a token. */
export const isPrivateId = (id) => id.includes('.')

/** A new revision id, random like the Content Lake's (22 characters). */
export const newRev = () => randomBytes(16).toString('base64url').slice(0, 22)

/** The documents a query sees under a perspective, as the Content Lake would present them. */
export function documentsForPerspective(documents, perspective, authorized) {
  const names = String(perspective || 'published').split(',')
  if (!authorized) return documents.filter((doc) => !isPrivateId(doc._id))
  if (names.includes('raw')) return documents
  if (names.includes('drafts') || names.includes('previewDrafts')) {
    const drafts = new Map(
      documents
        .filter((doc) => isDraftId(doc._id))
        .map((doc) => [doc._id.slice('drafts.'.length), doc]),
    )
    const merged = documents
      .filter((doc) => !isDraftId(doc._id) && !isVersionId(doc._id))
      .map((doc) => {
        const draft = drafts.get(doc._id)
        drafts.delete(doc._id)
        return draft ? { ...draft, _id: doc._id, _originalId: draft._id } : doc
      })
    // Drafts of documents that were never published are visible too.
    for (const [id, draft] of drafts) merged.push({ ...draft, _id: id, _originalId: draft._id })
    return merged
  }
  return documents.filter((doc) => !isDraftId(doc._id) && !isVersionId(doc._id))
}

/**
 * `count` more published articles for measurements at scale (scripts/bench/publish-cost.mjs,
 * tests/e2e/publish-cost.spec.ts): copies of the first bundled article with their own id, slug
 * (`artigo-de-carga-<n>`) and title, each an hour older than the one before and older than every
 * bundled article, in the bundled categories in turn. Test data only, never in the bundled dataset.
 * @param {LakeDocument[]} documents
 * @param {number} count
 * @returns {LakeDocument[]}
 */
export function extraArticles(documents, count) {
  const template = documents.find((doc) => doc._type === 'article' && !isPrivateId(doc._id))
  const categories = documents.filter((doc) => doc._type === 'category' && !isPrivateId(doc._id))
  if (!template) throw new Error('extraArticles: the dataset has no article to copy')
  const start = Date.parse('2025-12-31T12:00:00Z')
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1
    const category = categories[index % Math.max(1, categories.length)]
    return {
      ...structuredClone(template),
      _id: `article-carga-${n}`,
      title: `Artigo de carga ${n}`,
      slug: { _type: 'slug', current: `artigo-de-carga-${n}` },
      publishedAt: new Date(start - n * 3_600_000).toISOString(),
      ...(category
        ? { categories: [{ _type: 'reference', _ref: category._id, _key: `c${n}` }] }
        : {}),
      visibleFrom: null,
      visibleUntil: null,
    }
  })
}

function setPath(target, dotPath, value) {
  const keys = dotPath.split('.')
  let node = target
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {}
    node = node[key]
  }
  node[keys.at(-1)] = value
}

function unsetPath(target, dotPath) {
  const keys = dotPath.split('.')
  let node = target
  for (const key of keys.slice(0, -1)) {
    node = node?.[key]
    if (typeof node !== 'object' || node === null) return
  }
  delete node[keys.at(-1)]
}

/**
 * Applies `mutations` to `store` (a Map of id -> document), in place; documents are replaced, never
 * changed where they are, so an earlier snapshot of the Map (a stale read) keeps its own. Every
 * document created or changed gets a new `_rev`.
 */
function applyMutations(store, mutations) {
  const results = []
  for (const mutation of mutations) {
    const [operation, body] = Object.entries(mutation)[0] ?? []
    if (
      operation === 'createOrReplace' ||
      operation === 'createIfNotExists' ||
      operation === 'create'
    ) {
      if (!body?._id || !body?._type) throw new Error(`${operation} needs _id and _type`)
      if (operation !== 'createOrReplace' && store.has(body._id)) {
        if (operation === 'create') throw new Error(`Document "${body._id}" already exists`)
        results.push({ id: body._id, operation: 'none' })
        continue
      }
      const now = new Date().toISOString()
      store.set(
        body._id,
        structuredClone({
          ...body,
          _createdAt: body._createdAt ?? store.get(body._id)?._createdAt ?? now,
          _updatedAt: body._updatedAt ?? now,
          _rev: newRev(),
        }),
      )
      results.push({ id: body._id, operation: 'create' })
    } else if (operation === 'delete') {
      store.delete(body?.id)
      results.push({ id: body?.id, operation: 'delete' })
    } else if (operation === 'patch') {
      const current = store.get(body?.id)
      if (!current) throw new Error(`Document "${body?.id}" not found`)
      const doc = structuredClone(current)
      for (const [dotPath, value] of Object.entries(body.set ?? {})) setPath(doc, dotPath, value)
      for (const dotPath of body.unset ?? []) unsetPath(doc, dotPath)
      doc._updatedAt = new Date().toISOString()
      doc._rev = newRev()
      store.set(doc._id, doc)
      results.push({ id: body.id, operation: 'update' })
    } else {
      throw new Error(`Unsupported mutation "${operation}"`)
    }
  }
  return results
}

function send(res, status, body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, {
    'content-type':
      typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
  })
  res.end(text)
}

async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const text = Buffer.concat(chunks).toString('utf8')
  return text.trim() ? JSON.parse(text) : {}
}

/**
 * @typedef {{ _id: string, _type: string, [field: string]: unknown }} LakeDocument
 * @typedef {{
 *   documents?: LakeDocument[],
 *   port?: number,
 *   host?: string,
 *   dataset?: string,
 *   token?: string,
 *   imageFiles?: Map<string, string>,
 *   consistencyDelayMs?: number,
 *   users?: LakeUser[],
 *   log?: (line: string) => void,
 * }} LakeOptions
 * @typedef {{ token: string, id: string, name?: string, email?: string, roles: string[] }} LakeUser
 *   A Studio user's session token; `roles` empty for someone who is not a member of the project.
 */

/**
 * Starts the double. `documents` is the initial dataset (published and drafts.* together);
 * `port: 0` picks a free port.
 * @param {LakeOptions} [options]
 */
export async function startContentLakeDouble({
  documents = [],
  port = 4010,
  host = '127.0.0.1',
  dataset = 'production',
  token = DEFAULT_TOKEN,
  imageFiles = new Map(),
  consistencyDelayMs = 0,
  users = [],
  log = () => {},
} = {}) {
  // Revisions fixed once, so that a reset brings back the very revisions the double started with.
  const initial = structuredClone(documents).map((doc) => ({ ...doc, _rev: doc._rev ?? newRev() }))
  let store = new Map(initial.map((doc) => [doc._id, structuredClone(doc)]))
  /**
   * Every state of the dataset of the last minute, oldest first, with the time it was made: what a
   * query sees under a consistency delay. Each state is a Map of its own; documents are shared
   * between states and never changed in place (applyMutations replaces them).
   * @type {Array<{ at: number, store: Map<string, LakeDocument> }>}
   */
  let states = [{ at: 0, store }]
  let delayMs = checkDelay(consistencyDelayMs)
  let requestLog = []
  /** @type {'none' | '503' | 'hang'} */
  let failure = 'none'
  /** Query requests held open while the mode is "hang". */
  const hung = new Set()

  /** Sets the failure mode; requests held by "hang" are dropped when it ends, as a dead link. */
  function setFailure(mode) {
    if (!FAILURE_MODES.has(mode)) throw new Error(`Unknown failure mode "${mode}"`)
    failure = mode
    if (mode !== 'hang') {
      for (const res of hung) res.destroy()
      hung.clear()
    }
  }

  function checkDelay(value) {
    if (!Number.isInteger(value) || value < 0 || value > 60_000)
      throw new Error(`The consistency delay must be a whole number of ms from 0 to 60000`)
    return value
  }

  /** Applies a batch of mutations all or nothing (like one transaction), as a new state. */
  function commit(mutations) {
    const next = new Map(store)
    const results = applyMutations(next, mutations)
    const now = Date.now()
    store = next
    states.push({ at: now, store: next })
    // Keep one state older than a minute (what a query under the longest delay sees).
    while (states.length > 1 && states[1].at <= now - 60_000) states.shift()
    return results
  }

  /** The state a query made now sees: the newest one at least `delayMs` old. */
  function readable() {
    if (delayMs === 0) return store
    const cutoff = Date.now() - delayMs
    for (let i = states.length - 1; i >= 0; i--) if (states[i].at <= cutoff) return states[i].store
    return states[0].store
  }

  async function handleQuery(req, res, url, datasetName) {
    const started = performance.now()
    const authHeader = req.headers.authorization
    const bearer = authHeader?.startsWith('Bearer ')
      ? authHeader.slice('Bearer '.length)
      : undefined
    const perspective = url.searchParams.get('perspective') ?? undefined

    let query = url.searchParams.get('query') ?? undefined
    const params = {}
    for (const [key, value] of url.searchParams) {
      if (key.startsWith('$')) params[key.slice(1)] = JSON.parse(value)
    }
    if (req.method === 'POST') {
      const body = await readBody(req)
      query = body.query ?? query
      Object.assign(params, body.params ?? {})
    }

    requestLog.push({
      method: req.method,
      path: url.pathname,
      perspective: perspective ?? null,
      authorized: bearer !== undefined && bearer === token,
      query: query ?? null,
      at: new Date().toISOString(),
    })

    if (failure === '503') {
      return send(res, 503, { error: 'Service Unavailable', statusCode: 503 })
    }
    if (failure === 'hang') {
      hung.add(res)
      res.on('close', () => hung.delete(res))
      return
    }
    if (bearer !== undefined && bearer !== token) {
      return send(res, 401, {
        error: 'Unauthorized',
        message: 'Session not found',
        statusCode: 401,
      })
    }
    if (datasetName !== dataset) {
      return send(res, 404, {
        error: 'Not Found',
        message: `Dataset "${datasetName}" not found for this project`,
        statusCode: 404,
      })
    }
    if (!query) {
      return send(res, 400, {
        error: { description: 'Missing "query" parameter', type: 'queryParseError' },
      })
    }

    let tree
    try {
      tree = parse(query, { params })
    } catch (error) {
      return send(res, 400, {
        error: { description: error.message, query, type: 'queryParseError' },
      })
    }
    const visible = documentsForPerspective([...readable().values()], perspective, bearer === token)
    const result = await (await evaluate(tree, { dataset: visible, params })).get()
    const body = { ms: Math.round(performance.now() - started), result }
    if (url.searchParams.get('returnQuery') !== 'false') body.query = query
    send(res, 200, body)
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`)
    try {
      const queryMatch = url.pathname.match(QUERY_PATH)
      if (queryMatch && (req.method === 'GET' || req.method === 'POST')) {
        return await handleQuery(req, res, url, decodeURIComponent(queryMatch[1]))
      }
      const mutateMatch = url.pathname.match(MUTATE_PATH)
      if (mutateMatch && req.method === 'POST') {
        // The mutation API as @sanity/client calls it (the Studio's publish action writes
        // redirects this way): a write token is required, like the real API.
        const bearer = req.headers.authorization?.replace(/^Bearer /, '')
        if (bearer !== token) {
          return send(res, 401, { error: 'Unauthorized', message: 'Session not found' })
        }
        if (decodeURIComponent(mutateMatch[1]) !== dataset) {
          return send(res, 404, { error: 'Not Found', message: 'Dataset not found' })
        }
        const { mutations } = await readBody(req)
        try {
          const results = commit(Array.isArray(mutations) ? mutations : [])
          return send(res, 200, {
            transactionId: `tx-${Date.now()}`,
            results: results.map((result) => ({
              ...result,
              document: store.get(result.id),
            })),
          })
        } catch (error) {
          return send(res, 400, { error: { description: error.message, type: 'mutationError' } })
        }
      }
      if (USERS_ME_PATH.test(url.pathname) && req.method === 'GET') {
        // The project's users/me, as the site's analytics endpoint asks it: the user of a known
        // token with their roles in this project (none for a non-member); an unknown token gets
        // 401 like the real API's "Session not found", no token an empty object.
        const bearer = req.headers.authorization?.replace(/^Bearer /, '')
        if (!bearer) return send(res, 200, {})
        const user = users.find((candidate) => candidate.token === bearer)
        if (!user) return send(res, 401, { error: 'Unauthorized', message: 'Session not found' })
        return send(res, 200, {
          id: user.id,
          name: user.name ?? user.id,
          email: user.email ?? `${user.id}@example.com`,
          provider: 'sanity',
          role: user.roles[0] ?? null,
          roles: user.roles.map((name) => ({ name, title: name })),
        })
      }
      if (url.pathname === '/__fail' && req.method === 'POST') {
        const { mode } = await readBody(req)
        try {
          setFailure(mode)
        } catch (error) {
          return send(res, 400, { error: error.message })
        }
        return send(res, 200, { mode })
      }
      const imageMatch = url.pathname.match(IMAGE_PATH)
      if (imageMatch && req.method === 'GET') {
        const file = imageFiles.get(imageMatch[1])
        if (!file) return send(res, 404, { error: 'Not Found', message: 'No such asset' })
        res.writeHead(200, {
          'content-type': IMAGE_TYPES[path.extname(file).slice(1)] ?? 'application/octet-stream',
          'cache-control': 'public, max-age=31536000, immutable',
          'access-control-allow-origin': '*',
        })
        return res.end(readFileSync(file))
      }
      if (url.pathname === '/__health') return send(res, 200, 'ok')
      if (url.pathname === '/__requests' && req.method === 'GET') {
        return send(res, 200, { count: requestLog.length, requests: requestLog })
      }
      if (url.pathname === '/__consistency' && req.method === 'POST') {
        const { delayMs: value } = await readBody(req)
        try {
          delayMs = checkDelay(value)
        } catch (error) {
          return send(res, 400, { error: error.message })
        }
        return send(res, 200, { delayMs })
      }
      if (url.pathname === '/__reset' && req.method === 'POST') {
        controls.reset()
        return send(res, 200, { ok: true })
      }
      if (url.pathname === '/__mutate' && req.method === 'POST') {
        const { mutations } = await readBody(req)
        if (!Array.isArray(mutations))
          return send(res, 400, { error: 'Body must be {"mutations": [...]}' })
        try {
          return send(res, 200, { results: commit(mutations) })
        } catch (error) {
          return send(res, 400, { error: error.message })
        }
      }
      send(res, 404, { error: 'Not Found', message: `No route for ${req.method} ${url.pathname}` })
    } catch (error) {
      log(`content-lake-double: ${req.method} ${url.pathname} failed: ${error.stack ?? error}`)
      send(res, 500, { error: 'Internal Server Error', message: String(error.message ?? error) })
    }
  })

  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port

  const controls = {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    token,
    mutate: (mutations) => commit(mutations),
    /** Queries see each mutation this many ms after it (0: at once). */
    consistencyDelay(ms) {
      delayMs = checkDelay(ms)
    },
    requests: () => ({ count: requestLog.length, requests: [...requestLog] }),
    reset() {
      store = new Map(initial.map((doc) => [doc._id, structuredClone(doc)]))
      states = [{ at: 0, store }]
      delayMs = consistencyDelayMs
      requestLog = []
      setFailure('none')
    },
    /** 'none', '503' (every query answers 503) or 'hang' (no query is ever answered). */
    fail: setFailure,
    // Next's fetch keeps connections alive: without closing them, close() would wait forever.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
  return controls
}

function parseArgs(argv) {
  const options = { sets: [] }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [name, inlineValue] = arg.startsWith('--') ? arg.slice(2).split(/=(.*)/s, 2) : [arg]
    const value = () => inlineValue ?? argv[++i]
    if (name === 'port') options.port = Number(value())
    else if (name === 'host') options.host = value()
    else if (name === 'file') options.file = value()
    else if (name === 'dataset') options.dataset = value()
    else if (name === 'token') options.token = value()
    else if (name === 'project-id') options.projectId = value()
    else if (name === 'set') options.sets.push(value())
    else if (name === 'consistency-delay-ms') options.consistencyDelayMs = Number(value())
    // --user <token>:<id>[:<role>] (no role: a signed-in Sanity user who is not a member)
    else if (name === 'user') {
      const [token, id, role] = value().split(':')
      ;(options.users ??= []).push({ token, id, roles: role ? [role] : [] })
    } else if (name === 'extra-articles') options.extraArticles = Number(value())
    else throw new Error(`Unknown argument "${arg}"`)
  }
  return options
}

const isMain =
  process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href

if (isMain) {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
  const options = parseArgs(process.argv.slice(2))
  const file = path.resolve(options.file ?? path.join(repoRoot, 'sanity/dataset/production.ndjson'))
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 4010
  const { documents, imageFiles } = importAssets(loadNdjson(file), {
    datasetDir: path.dirname(file),
    baseUrl: `http://${host}:${port}`,
    projectId: options.projectId ?? 'testproj',
    dataset: options.dataset ?? 'production',
  })
  if (options.extraArticles) documents.push(...extraArticles(documents, options.extraArticles))
  for (const assignment of options.sets) {
    const eq = assignment.indexOf('=')
    const target = eq > 0 ? assignment.slice(0, eq) : ''
    // Ids may contain dots (drafts.x), so take the longest id the target starts with.
    const doc = documents
      .filter((candidate) => target.startsWith(`${candidate._id}.`))
      .sort((a, b) => b._id.length - a._id.length)[0]
    if (!doc)
      throw new Error(`--set "${assignment}": expected <existing document id>.<path>=<value>`)
    setPath(doc, target.slice(doc._id.length + 1), assignment.slice(eq + 1))
  }
  const lake = await startContentLakeDouble({
    documents,
    port,
    host,
    dataset: options.dataset,
    token: options.token,
    imageFiles,
    consistencyDelayMs: options.consistencyDelayMs,
    users: options.users,
    log: (line) => console.error(line),
  })
  console.log(
    `Content Lake double on ${lake.url} (${documents.length} documents from ${path.relative(process.cwd(), file) || file})`,
  )
  const stop = () => lake.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

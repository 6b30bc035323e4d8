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
 *   -> 200 {"ms", "query", "result"} like the real API ("query" omitted with returnQuery=false,
 *      "resultSourceMap" added with resultSourceMap=true|withKeyArraySelector),
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
 *                     {"createOrReplace": doc}, {"createIfNotExists": doc}, {"create": doc} (409
 *                     when the id exists), {"delete": {"id"}},
 *                     {"patch": {"id", "set": {"dot.path": value}, "unset": ["dot.path"]}}
 *                     -> {"results": [{"id", "operation"}]}
 *   GET  /__webhooks  -> {"deliveries": [{id, operation, sentAt, status, body}]}: the webhooks sent
 *   GET  /__requests  -> {"count", "requests": [{method, path, perspective, authorized, query, params, at}]}
 *                     (query API requests only)
 *   POST /__fail      body {"mode": "503" | "hang" | "none"}: every query answers 503, or is never
 *                     answered (held open until the mode changes, then dropped), or works again
 *   POST /v<apiVersion>/data/mutate/<dataset>  body {"mutations": [...], "transactionId"?}: the
 *                     real mutation API (the write token, default "test-write-token", or a
 *                     member's session; the read token and a viewer get 403), one transaction:
 *                     returnIds, returnDocuments, dryRun; patches by @sanity/mutator
 *   POST /v<apiVersion>/data/actions/<dataset>  body {"actions": [...]}: the Actions API the
 *                     Studio's document actions use (create with ifExists, edit, publish with
 *                     ifDraftRevisionId and ifPublishedRevisionId, unpublish, discard), in order
 *   GET  /v<apiVersion>/data/live/events/<dataset>  the Live Content API's stream: a welcome
 *   GET  /v<apiVersion>/data/listen/<dataset>?query=…  Server-Sent Events: welcome, then each
 *                     change a query selects (the Studio's documents stay live)
 *   A transaction's id is the new _rev of what it changed, and with `webhook` set each published
 *   change the filter selects is POSTed, projected and signed, as Sanity's webhook does.
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
 *        [--user <token>:<id>[:<role>]]... [--tls-port N]
 *        [--webhook-url U --webhook-secret S --webhook-filter F --webhook-projection P]
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
import http2 from 'node:http2'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { Mutation } from '@sanity/mutator'
import { evaluate, parse } from 'groq-js'

import { resolveBundledAssets } from '../../lib/content/bundled-assets.mjs'
import { contentSourceMap } from './content-source-map.mjs'
import { sanityWebhook } from './sanity-webhook.mjs'

const DEFAULT_TOKEN = 'test-read-token'
const DEFAULT_WRITE_TOKEN = 'test-write-token'
/** Project roles that may not write (a read token is one too). */
const READ_ONLY_ROLES = new Set(['viewer'])
const IMAGE_PATH =
  /^\/(?:images\/[^/]+\/[^/]+\/([0-9a-f]+-\d+x\d+\.[a-z]+)|files\/[^/]+\/[^/]+\/([0-9a-f]+\.pdf))$/
const IMAGE_TYPES = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  pdf: 'application/pdf',
}

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
    // Sanity's CDN serves file assets at /files/<project>/<dataset>/<sha1>.<ext>.
    fileUrl: ({ sha1, extension, file }) => {
      const name = `${sha1}.${extension}`
      imageFiles.set(name, file)
      return `${baseUrl}/files/${projectId}/${dataset}/${name}`
    },
  })
  return { documents: imported, imageFiles }
}
const QUERY_PATH = /^\/v(?:X|\d{4}-\d{2}-\d{2}|1)\/data\/query\/([^/]+)\/?$/
const MUTATE_PATH = /^\/v(?:X|\d{4}-\d{2}-\d{2}|1)\/data\/mutate\/([^/]+)\/?$/
const ACTIONS_PATH = /^\/v(?:X|\d{4}-\d{2}-\d{2}|1)\/data\/actions\/([^/]+)\/?$/
const LIVE_PATH = /^\/v(?:X|\d{4}-\d{2}-\d{2}|1)\/data\/live\/events\/([^/]+)\/?$/
const LISTEN_PATH = /^\/v(?:X|\d{4}-\d{2}-\d{2}|1)\/data\/listen\/([^/]+)\/?$/
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

/**
 * Applies `mutations` to `store` (a Map of id -> document), in place, as one transaction `rev` made
 * at `timestamp`: documents are replaced, never changed where they are, so an earlier snapshot of
 * the Map (a stale read) keeps its own. Every document created or changed gets `rev` as its
 * `_rev` (the Content Lake's revision is the id of the transaction that made it). Patches are
 * applied by @sanity/mutator, the Studio's own implementation of Sanity's patch semantics
 * (set, setIfMissing, unset, insert, inc, dec, diffMatchPatch), with `ifRevisionID` checked.
 * Returns each result and each change ({id, before, after}) in order.
 */
function applyMutations(store, mutations, { rev = newRev(), timestamp } = {}) {
  const now = timestamp ?? new Date().toISOString()
  const results = []
  /** @type {Map<string, {id: string, before: LakeDocument | null, after: LakeDocument | null}>} */
  const changes = new Map()
  const write = (id, after) => {
    const before = store.get(id) ?? null
    if (!changes.has(id)) changes.set(id, { id, before, after: null })
    if (after) store.set(id, after)
    else store.delete(id)
    changes.get(id).after = after
  }
  const applied = (mutation, doc) =>
    new Mutation({ mutations: [mutation], resultRev: rev, timestamp: now }).apply(
      doc ? structuredClone(doc) : null,
    )
  for (const mutation of mutations) {
    const [operation, body] = Object.entries(mutation)[0] ?? []
    if (
      operation === 'createOrReplace' ||
      operation === 'createIfNotExists' ||
      operation === 'create'
    ) {
      if (!body?._id || !body?._type) throw new Error(`${operation} needs _id and _type`)
      if (operation !== 'createOrReplace' && store.has(body._id)) {
        // The Mutation API: "The operation will fail if a document by the provided ID already
        // exists" (409, the whole transaction with it), which makes create-then-delete a
        // precondition on a document's absence (sanity/lib/experiment-actions.ts).
        if (operation === 'create')
          throw Object.assign(new Error(`Document by ID "${body._id}" already exists`), {
            statusCode: 409,
          })
        results.push({ id: body._id, operation: 'none' })
        continue
      }
      const doc = applied({ createOrReplace: structuredClone(body) }, null)
      doc._createdAt = body._createdAt ?? store.get(body._id)?._createdAt ?? now
      if (body._updatedAt) doc._updatedAt = body._updatedAt
      write(body._id, doc)
      results.push({ id: body._id, operation: 'create' })
    } else if (operation === 'delete') {
      if (store.has(body?.id)) write(body.id, null)
      results.push({ id: body?.id, operation: 'delete' })
    } else if (operation === 'patch') {
      const current = store.get(body?.id)
      if (!current) throw new Error(`Document "${body?.id}" not found`)
      if (body.ifRevisionID && body.ifRevisionID !== current._rev)
        throw Object.assign(new Error(`Document "${body.id}" has unexpected revision`), {
          statusCode: 409,
        })
      write(body.id, applied({ patch: body }, current))
      results.push({ id: body.id, operation: 'update' })
    } else {
      throw new Error(`Unsupported mutation "${operation}"`)
    }
  }
  return { results, changes: [...changes.values()] }
}

/**
 * Deletes by query (`{delete: {query}}`, as @sanity/preview-url-secret deletes expired secrets)
 * made deletes by id, on the documents of `store` the query selects now.
 */
async function resolveQueryDeletes(store, mutations) {
  const resolved = []
  for (const mutation of mutations) {
    const query = mutation.delete?.query
    if (!query) {
      resolved.push(mutation)
      continue
    }
    const params = mutation.delete.params ?? {}
    const found = await (
      await evaluate(parse(query, { params }), { dataset: [...store.values()], params })
    ).get()
    for (const doc of Array.isArray(found) ? found : []) resolved.push({ delete: { id: doc._id } })
  }
  return resolved
}

/**
 * The mutations an Actions API request (POST /data/actions, what the Studio's document actions
 * send since Sanity v3.5x) stands for, on `store`. The actions apply in order, each seeing what
 * the ones before it did (the Studio sends a new document's create and its first edits in one
 * request), and any failed precondition fails the whole request.
 * https://www.sanity.io/docs/http-reference/actions
 */
function actionMutations(store, actions) {
  const working = new Map(store)
  return actions.flatMap((action) => {
    const mutations = mutationsOfAction(working, action)
    applyMutations(working, mutations)
    return mutations
  })
}

const conflict = (message) => Object.assign(new Error(message), { statusCode: 409 })

function mutationsOfAction(store, action) {
  const { actionType, draftId, publishedId } = action
  const draft = store.get(draftId)
  const published = store.get(publishedId)
  switch (actionType) {
    case 'sanity.action.document.create': {
      // ifExists: "fail" refuses a draft that exists, "ignore" leaves it as it is.
      if (store.has(action.attributes?._id)) {
        if (action.ifExists === 'ignore') return []
        throw conflict(`Document by ID "${action.attributes._id}" already exists`)
      }
      return [{ create: action.attributes }]
    }
    case 'sanity.action.document.replaceDraft':
      return [{ createOrReplace: action.attributes }]
    case 'sanity.action.document.edit': {
      // The draft is made from the published document on the first edit.
      const base = draft ?? (published && { ...published, _id: draftId })
      if (!base) throw conflict('Nothing to edit')
      return [
        ...(draft ? [] : [{ createOrReplace: base }]),
        { patch: { ...action.patch, id: draftId } },
      ]
    }
    case 'sanity.action.document.publish':
      if (!draft) throw conflict('No draft to publish')
      if (action.ifDraftRevisionId && action.ifDraftRevisionId !== draft._rev)
        throw conflict('The draft changed')
      // The Studio's lock: the published document is still the one it saw (none: no revision).
      if ('ifPublishedRevisionId' in action && action.ifPublishedRevisionId !== published?._rev)
        throw conflict('The published document changed')
      return [
        { createOrReplace: { ...draft, _id: publishedId, _createdAt: published?._createdAt } },
        { delete: { id: draftId } },
      ]
    case 'sanity.action.document.unpublish':
      return [
        ...(draft || !published ? [] : [{ createOrReplace: { ...published, _id: draftId } }]),
        { delete: { id: publishedId } },
      ]
    case 'sanity.action.document.discard':
      return [{ delete: { id: draftId } }]
    case 'sanity.action.document.delete':
      return [publishedId, ...(action.includeDrafts ?? [])].map((id) => ({ delete: { id } }))
    default:
      throw Object.assign(new Error(`Unsupported action "${actionType}"`), { statusCode: 400 })
  }
}

/**
 * A comment on an event stream every 10 s, as Sanity's API sends: the client reconnects after 45 s
 * without a byte.
 */
function keepAlive(res) {
  const timer = setInterval(() => res.write(': ping\n\n'), 10_000)
  res.on('close', () => clearInterval(timer))
}

function send(res, status, body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, {
    'content-type':
      typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'access-control-allow-origin': res.getHeader('access-control-allow-origin') ?? '*',
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
 *   writeToken?: string,
 *   imageFiles?: Map<string, string>,
 *   consistencyDelayMs?: number,
 *   users?: LakeUser[],
 *   webhook?: { url: string, secret: string, filter: string, projection: string },
 *   tls?: { port: number, key: string | Buffer, cert: string | Buffer },
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
  writeToken = DEFAULT_WRITE_TOKEN,
  imageFiles = new Map(),
  consistencyDelayMs = 0,
  users = [],
  webhook,
  tls,
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

  /**
   * Open listeners (GET /data/listen): each one's response, query, params and whether it may see
   * private documents, and the queue that keeps its events in the order of the transactions.
   * @type {Set<{res: http.ServerResponse, query: string, params: object, authorized: boolean, mendoza: boolean, includeResult: boolean, queue: Promise<void>}>}
   */
  const listeners = new Set()
  /** @type {Array<{id: string, operation: string, sentAt?: number, status: number, body: unknown}>} */
  let webhookLog = []

  /**
   * Applies a batch of mutations all or nothing (like one transaction), as a new state, then tells
   * the listeners and sends the publish webhook, as the Content Lake does. The transaction's id is
   * the new `_rev` of every document it changed.
   */
  function commit(
    mutations,
    { transactionId = newRev(), identity = 'p-content-lake-double' } = {},
  ) {
    const next = new Map(store)
    const timestamp = new Date().toISOString()
    const { results, changes } = applyMutations(next, mutations, { rev: transactionId, timestamp })
    const now = Date.now()
    store = next
    states.push({ at: now, store: next })
    // Keep one state older than a minute (what a query under the longest delay sees).
    while (states.length > 1 && states[1].at <= now - 60_000) states.shift()
    if (changes.length > 0) {
      for (const listener of listeners)
        listener.queue = listener.queue
          .then(() => notify(listener, changes, { transactionId, identity, timestamp }))
          .catch((error) => log(`content-lake-double: listener failed: ${error.stack ?? error}`))
      if (webhook) void deliverWebhooks(changes, transactionId)
    }
    return results
  }

  /** Whether `query` (a listener's, e.g. `*[_id in $ids]`) selects `doc`. */
  async function selects(query, params, doc) {
    if (!doc) return false
    const found = await (await evaluate(parse(query, { params }), { dataset: [doc], params })).get()
    return Array.isArray(found) ? found.length > 0 : Boolean(found)
  }

  /** One transaction's mutation events for one listener, in Sanity's listener format. */
  async function notify(listener, changes, { transactionId, identity, timestamp }) {
    const seen = []
    for (const change of changes) {
      if (!listener.authorized && isPrivateId(change.id)) continue
      const { query, params } = listener
      if (
        (await selects(query, params, change.before)) ||
        (await selects(query, params, change.after))
      )
        seen.push(change)
    }
    seen.forEach(({ id, before, after }, index) => {
      const data = {
        eventId: `${transactionId}#${id}`,
        documentId: id,
        transactionId,
        transition: !before ? 'appear' : !after ? 'disappear' : 'update',
        identity,
        // The whole new document (or its deletion): what the Studio's mutator applies.
        mutations: [after ? { createOrReplace: after } : { delete: { id } }],
        previousRev: before?._rev,
        resultRev: transactionId,
        timestamp,
        visibility: 'query',
        transactionTotalEvents: seen.length,
        transactionCurrentEvent: index + 1,
        // A mendoza patch that replaces the document whole (opcode 0: the value itself).
        ...(listener.mendoza ? { effects: { apply: [0, after], revert: [0, before] } } : {}),
        ...(listener.includeResult ? { result: after ?? undefined } : {}),
      }
      listener.res.write(`event: mutation\nid: ${data.eventId}\ndata: ${JSON.stringify(data)}\n\n`)
    })
  }

  /**
   * The publish webhook docs/content.md configures: for each published document (drafts and
   * versions off) the filter selects, before or after, its projection (with `before()` and
   * `after()`, GROQ's delta mode), signed with the secret, POSTed to the URL.
   */
  async function deliverWebhooks(changes, transactionId) {
    for (const { id, before, after } of changes) {
      if (isPrivateId(id)) continue
      const root = after ?? before
      const delta = (query) =>
        evaluate(parse(query, { mode: 'delta' }), { root, before, after }).then((value) =>
          value.get(),
        )
      try {
        if (!(await delta(webhook.filter))) continue
        const operation = !before ? 'create' : !after ? 'delete' : 'update'
        const delivery = await sanityWebhook(await delta(webhook.projection), webhook.secret)
        const sentAt = Date.now()
        const response = await fetch(webhook.url, {
          method: 'POST',
          headers: {
            ...delivery.headers,
            'sanity-transaction-id': transactionId,
            'sanity-document-id': id,
            'sanity-operation': operation,
            'sanity-dataset': dataset,
          },
          body: delivery.body,
        })
        const text = await response.text()
        webhookLog.push({ id, operation, sentAt, status: response.status, body: text })
        if (!response.ok) log(`content-lake-double: webhook for ${id} answered ${response.status}`)
      } catch (error) {
        webhookLog.push({ id, operation: 'failed', status: 0, body: String(error) })
        log(`content-lake-double: webhook for ${id} failed: ${error.stack ?? error}`)
      }
    }
  }

  /**
   * Who a write request comes from: the write token's robot or a signed-in member, `readOnly` when
   * their role may not write (the read token, a viewer), as the real API answers 403 to them.
   */
  function writer(req) {
    const bearer = req.headers.authorization?.replace(/^Bearer /, '')
    if (!bearer) return undefined
    if (bearer === writeToken) return { id: 'p-content-lake-double' }
    if (bearer === token) return { id: 'p-read-token', readOnly: true }
    const user = users.find((candidate) => candidate.token === bearer && candidate.roles.length > 0)
    return user && { ...user, readOnly: user.roles.every((role) => READ_ONLY_ROLES.has(role)) }
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
      params,
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
    // What a draft-mode fetch with stega asks for (content-source-map.mjs).
    const sourceMap = url.searchParams.get('resultSourceMap')
    if (sourceMap && sourceMap !== 'false') {
      body.resultSourceMap = contentSourceMap(result, visible, {
        keyed: sourceMap === 'withKeyArraySelector',
      })
    }
    send(res, 200, body)
  }

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? host}`)
    // The Studio calls the API from the site's origin with its session: CORS with credentials,
    // as the project's CORS origins allow it (docs/content.md, `sanity cors add`).
    if (req.headers.origin) {
      res.setHeader('access-control-allow-origin', req.headers.origin)
      res.setHeader('access-control-allow-credentials', 'true')
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      })
      return res.end()
    }
    try {
      const queryMatch = url.pathname.match(QUERY_PATH)
      if (queryMatch && (req.method === 'GET' || req.method === 'POST')) {
        return await handleQuery(req, res, url, decodeURIComponent(queryMatch[1]))
      }
      const mutateMatch = url.pathname.match(MUTATE_PATH)
      const actionsMatch = url.pathname.match(ACTIONS_PATH)
      if ((mutateMatch || actionsMatch) && req.method === 'POST') {
        // The mutation API as @sanity/client calls it (the Studio's slug-change redirect, review
        // links, Presentation's preview secret) and the Actions API the Studio's own document
        // actions use (edit, publish, unpublish, discard): a write token or a member's session
        // is required, like the real API. One request is one transaction, whose id (the
        // client's transactionId, else a new one) is the changed documents' new _rev.
        const user = writer(req)
        if (!user) return send(res, 401, { error: 'Unauthorized', message: 'Session not found' })
        if (user.readOnly)
          return send(res, 403, {
            error: {
              description: 'Insufficient permissions; permission "update" required',
              type: 'mutationError',
            },
          })
        if (decodeURIComponent((mutateMatch ?? actionsMatch)[1]) !== dataset) {
          return send(res, 404, { error: 'Not Found', message: 'Dataset not found' })
        }
        const body = await readBody(req)
        const transactionId =
          body.transactionId ?? url.searchParams.get('transactionId') ?? newRev()
        try {
          const mutations = mutateMatch
            ? await resolveQueryDeletes(store, Array.isArray(body.mutations) ? body.mutations : [])
            : actionMutations(store, Array.isArray(body.actions) ? body.actions : [])
          if (url.searchParams.get('dryRun') === 'true') {
            applyMutations(new Map(store), mutations)
            return send(res, 200, { transactionId, results: [] })
          }
          const results = commit(mutations, { transactionId, identity: user.id })
          if (actionsMatch) return send(res, 200, { transactionId })
          // returnIds and returnDocuments as the real API answers them; visibility=sync (and
          // async, deferred) hold: every query after this answer sees the transaction.
          const returnDocuments = url.searchParams.get('returnDocuments') === 'true'
          const returnIds = url.searchParams.get('returnIds') === 'true' || returnDocuments
          return send(res, 200, {
            transactionId,
            results: results.map((result) => ({
              ...(returnIds ? { id: result.id } : {}),
              operation: result.operation,
              ...(returnDocuments ? { document: store.get(result.id) } : {}),
            })),
          })
        } catch (error) {
          return send(res, error.statusCode ?? 400, {
            error: { description: error.message, type: 'mutationError' },
          })
        }
      }
      if (LIVE_PATH.test(url.pathname) && req.method === 'GET') {
        // The Live Content API's event stream (Presentation's live queries): welcomed and kept
        // open. No sync tags are sent: what Presentation shows is reloaded by its own listener.
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          'access-control-allow-origin': res.getHeader('access-control-allow-origin') ?? '*',
        })
        res.write('event: welcome\ndata: {}\n\n')
        keepAlive(res)
        return
      }
      const listenMatch = url.pathname.match(LISTEN_PATH)
      if (listenMatch && req.method === 'GET') {
        // The listener (Server-Sent Events), as the Studio's document store and previews use it:
        // a welcome, then one `mutation` event per document a transaction changed that the query
        // selects (the whole new document as its mutation, and as a mendoza effect when asked).
        const bearer = req.headers.authorization?.replace(/^Bearer /, '')
        const params = {}
        for (const [key, value] of url.searchParams)
          if (key.startsWith('$')) params[key.slice(1)] = JSON.parse(value)
        const listener = {
          res,
          query: url.searchParams.get('query') ?? '*',
          params,
          authorized: bearer === token || Boolean(writer(req)),
          mendoza: url.searchParams.get('effectFormat') === 'mendoza',
          includeResult: url.searchParams.get('includeResult') !== 'false',
          queue: Promise.resolve(),
        }
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          'access-control-allow-origin': res.getHeader('access-control-allow-origin') ?? '*',
        })
        res.write(`event: welcome\ndata: ${JSON.stringify({ listenerName: newRev() })}\n\n`)
        listeners.add(listener)
        res.on('close', () => listeners.delete(listener))
        keepAlive(res)
        return
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
        const file = imageFiles.get(imageMatch[1] ?? imageMatch[2])
        if (!file) return send(res, 404, { error: 'Not Found', message: 'No such asset' })
        res.writeHead(200, {
          'content-type': IMAGE_TYPES[path.extname(file).slice(1)] ?? 'application/octet-stream',
          'cache-control': 'public, max-age=31536000, immutable',
          'access-control-allow-origin': '*',
        })
        return res.end(readFileSync(file))
      }
      if (url.pathname === '/__health') return send(res, 200, 'ok')
      if (url.pathname === '/__webhooks' && req.method === 'GET') {
        return send(res, 200, { deliveries: webhookLog })
      }
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
  }
  const server = http.createServer(handle)
  // The same API over HTTPS, for a browser whose <project>.api.sanity.io is mapped here
  // (tests/e2e/studio-fixtures.ts): the Studio's listener is a stream a route cannot fulfil.
  // HTTP/2, as Sanity's API: the Studio keeps several listeners open, more than a browser's six
  // HTTP/1.1 connections to one host, which left its next document loading.
  const tlsServer = tls
    ? http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, handle)
    : undefined
  const sessions = new Set()
  tlsServer?.on('session', (session) => {
    sessions.add(session)
    session.on('close', () => sessions.delete(session))
  })

  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  if (tlsServer)
    await new Promise((resolve, reject) => {
      tlsServer.once('error', reject)
      tlsServer.listen(tls.port, host, resolve)
    })

  const controls = {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    token,
    writeToken,
    mutate: (mutations) => commit(mutations),
    /** Queries see each mutation this many ms after it (0: at once). */
    consistencyDelay(ms) {
      delayMs = checkDelay(ms)
    },
    requests: () => ({ count: requestLog.length, requests: [...requestLog] }),
    /** The publish webhook's deliveries so far: document, operation, the site's status and answer. */
    webhooks: () => [...webhookLog],
    reset() {
      webhookLog = []
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
      Promise.all([
        new Promise((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        }),
        tlsServer &&
          new Promise((resolve) => {
            tlsServer.close(() => resolve())
            for (const session of sessions) session.destroy()
          }),
      ]),
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
    else if (name === 'webhook-url') (options.webhook ??= {}).url = value()
    else if (name === 'webhook-secret') (options.webhook ??= {}).secret = value()
    else if (name === 'webhook-filter') (options.webhook ??= {}).filter = value()
    else if (name === 'webhook-projection') (options.webhook ??= {}).projection = value()
    else if (name === 'tls-port') options.tlsPort = Number(value())
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
    webhook: options.webhook,
    // The test-only certificate of tests/support/tls (a browser that ignores certificate errors).
    tls: options.tlsPort
      ? {
          port: options.tlsPort,
          key: readFileSync(path.join(repoRoot, 'tests/support/tls/server.key')),
          cert: readFileSync(path.join(repoRoot, 'tests/support/tls/server.pem')),
        }
      : undefined,
    log: (line) => console.error(line),
  })
  console.log(
    `Content Lake double on ${lake.url} (${documents.length} documents from ${path.relative(process.cwd(), file) || file})`,
  )
  const stop = () => lake.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

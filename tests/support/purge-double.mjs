#!/usr/bin/env node
/**
 * A stand-in for a CDN's purge API, answering like Cloudflare's
 * (https://developers.cloudflare.com/api/resources/cache/methods/purge/), so the site's purges
 * (lib/cdn/purge.ts) are checked against the limits a real CDN enforces.
 *
 *   POST /client/v4/zones/<zone>/purge_cache
 *        Authorization: Bearer <token>   (401 without it, 403 with another one)
 *        body: exactly one of {"files": [...]}, {"tags": [...]}, {"prefixes": [...]},
 *              {"hosts": [...]}, {"purge_everything": true}
 *   -> 200 {"success": true, "errors": [], "messages": [], "result": {"id": "<zone>"}}
 *   -> 400 when a list has more than 100 items (Cloudflare's limit per request), is empty, or
 *      the body names none or several of them
 *   -> 429 {"success": false, ...} with Retry-After when more than `ratePerMinute` requests came
 *      in the last minute (default 1000, set it lower), or, with `bucket`, when its token bucket
 *      is empty: `bucket` requests at once, then `ratePerMinute` a minute as it refills.
 *      CLOUDFLARE_FREE is the Free plan's (5 a minute, a bucket of 25:
 *      https://developers.cloudflare.com/cache/how-to/purge-cache/)
 *
 * Control: GET /__purges -> {"purges": [{at, status, kind, items}]} (refused ones included);
 *          POST /__reset clears it.
 *
 * Module: const purge = await startPurgeDouble({ port: 0, token, ratePerMinute, bucket });
 *         startPurgeDouble({ port: 0, token, ...CLOUDFLARE_FREE })
 *         purge.endpoint; purge.purges(); purge.reset(); await purge.close()
 * CLI:    node tests/support/purge-double.mjs [--port 4020] [--token purge-token] [--rate 1000]
 *         [--bucket 25]
 */
import http from 'node:http'
import path from 'node:path'

export const MAX_ITEMS = 100
/** Cloudflare Free's purge rate: a bucket of 25 requests, refilled at 5 a minute. */
export const CLOUDFLARE_FREE = Object.freeze({ ratePerMinute: 5, bucket: 25 })
const KINDS = ['files', 'tags', 'prefixes', 'hosts', 'purge_everything']
const PURGE_PATH = /^\/client\/v4\/zones\/([^/]+)\/purge_cache$/

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

const failure = (code, message) => ({
  success: false,
  errors: [{ code, message }],
  messages: [],
  result: null,
})

/**
 * @param {{ port?: number, host?: string, token?: string, ratePerMinute?: number, bucket?: number }} [options]
 */
export async function startPurgeDouble({
  port = 4020,
  host = '127.0.0.1',
  token = 'purge-token',
  ratePerMinute = 1000,
  bucket,
} = {}) {
  /** @type {Array<{at: number, status: number, kind?: string, items: string[]}>} */
  let log = []
  /** Times of the requests accepted in the last minute (the rate limit's window). */
  let recent = []
  /** With `bucket`: the tokens left, as of `filledAt`. */
  let tokens = bucket ?? 0
  let filledAt = Date.now()
  const perMs = ratePerMinute / 60_000

  /** Milliseconds until a request is accepted (0: now), and takes its token when it is. */
  function admit(at) {
    if (bucket !== undefined) {
      tokens = Math.min(bucket, tokens + (at - filledAt) * perMs)
      filledAt = at
      if (tokens >= 1) {
        tokens -= 1
        return 0
      }
      return (1 - tokens) / perMs
    }
    recent = recent.filter((time) => at - time < 60_000)
    if (recent.length >= ratePerMinute) return recent[0] + 60_000 - at
    recent.push(at)
    return 0
  }
  function refill() {
    recent = []
    tokens = bucket ?? 0
    filledAt = Date.now()
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://double')
    if (url.pathname === '/__purges' && req.method === 'GET') return send(res, 200, { purges: log })
    if (url.pathname === '/__reset' && req.method === 'POST') {
      log = []
      refill()
      return send(res, 200, { ok: true })
    }
    const zone = PURGE_PATH.exec(url.pathname)?.[1]
    if (!zone || req.method !== 'POST') return send(res, 404, failure(7003, 'No route'))
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      const at = Date.now()
      const record = (status, kind, items = []) => log.push({ at, status, kind, items })
      const auth = req.headers.authorization ?? ''
      if (!auth.startsWith('Bearer ')) {
        record(401)
        return send(res, 401, failure(10000, 'Authentication error'))
      }
      if (auth.slice('Bearer '.length) !== token) {
        record(403)
        return send(res, 403, failure(10000, 'Authentication error'))
      }
      const waitMs = admit(at)
      if (waitMs > 0) {
        record(429)
        const retry = Math.max(1, Math.ceil(waitMs / 1000))
        return send(
          res,
          429,
          failure(971, 'Please wait and consider throttling your request speed'),
          {
            'retry-after': String(retry),
          },
        )
      }
      let body
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        record(400)
        return send(res, 400, failure(1012, 'Request must contain a valid JSON body'))
      }
      const kinds = KINDS.filter((kind) => body && body[kind] !== undefined)
      if (kinds.length !== 1) {
        record(400)
        return send(res, 400, failure(1012, `Name exactly one of ${KINDS.join(', ')}`))
      }
      const [kind] = kinds
      const items = kind === 'purge_everything' ? [] : body[kind]
      if (kind !== 'purge_everything' && (!Array.isArray(items) || items.length === 0)) {
        record(400, kind)
        return send(res, 400, failure(1012, `${kind} must be a non-empty list`))
      }
      if (items.length > MAX_ITEMS) {
        record(400, kind, items)
        return send(res, 400, failure(1018, `Only ${MAX_ITEMS} ${kind} per request`))
      }
      record(200, kind, items)
      return send(res, 200, { success: true, errors: [], messages: [], result: { id: zone } })
    })
  })
  await new Promise((resolve) => server.listen(port, host, resolve))
  const address = server.address()
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}`
  return {
    url,
    endpoint: `${url}/client/v4/zones/test-zone/purge_cache`,
    token,
    purges: () => structuredClone(log),
    reset: () => {
      log = []
      refill()
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined))
        server.closeAllConnections()
      }),
  }
}

// Not import.meta: Playwright loads this module for the specs through its CommonJS transform.
const isMain = path.basename(process.argv[1] ?? '') === 'purge-double.mjs'
async function main() {
  const args = process.argv.slice(2)
  const option = (name, fallback) => {
    const index = args.indexOf(`--${name}`)
    return index >= 0 ? args[index + 1] : fallback
  }
  const purge = await startPurgeDouble({
    port: Number(option('port', '4020')),
    token: option('token', 'purge-token'),
    ratePerMinute: Number(option('rate', '1000')),
    bucket: option('bucket') === undefined ? undefined : Number(option('bucket')),
  })
  console.log(`Purge double on ${purge.endpoint}`)
  const stop = () => purge.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

// No top-level await either, for the same reason.
if (isMain) void main()

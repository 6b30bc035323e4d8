// The bench's control (issue 53, docs/speed.md): the home page served with nothing but what it
// lays out at load, its head and its markup up to the first lazy block, without a script. Measured
// beside the floor and the page, it says how much of the page's style and layout is the first
// screen's own design, which no change below the fold or in the scripts can take away.

import http from 'node:http'
import zlib from 'node:zlib'

/** Its Lighthouse page name, and the page (an id of PAGES, budgets.mjs) it is cut from. */
export const FIRST_SCREEN_CONTROL = Object.freeze({ name: 'first-screen', of: 'home' })

/**
 * The class of the blocks that render only near the viewport: LAZY_BLOCK of
 * components/render-all.tsx (tests/unit/bench-first-screen.test.ts holds the two equal).
 */
export const LAZY_BLOCK_CLASS = 'render-when-visible'

const FIRST_LAZY_BLOCK = new RegExp(
  `<[a-z][^>]*\\sclass="(?:[^"]*\\s)?${LAZY_BLOCK_CLASS}(?:\\s[^"]*)?"[^>]*>`,
)
const SCRIPTS = /<script\b[^>]*>[\s\S]*?<\/script>/g
const SCRIPT_PRELOADS = /<link\b[^>]*(?:\sas="script"|\srel="modulepreload")[^>]*>/g

/**
 * A page's HTML cut before its first lazy block, without scripts or their preloads. The parser
 * closes the elements left open, as it does at the end of any document.
 * @param {string} html
 */
export function firstScreenOnly(html) {
  const lazy = FIRST_LAZY_BLOCK.exec(html)
  const cut = lazy ? html.slice(0, lazy.index) : html
  return cut.replace(SCRIPTS, '').replace(SCRIPT_PRELOADS, '')
}

const DROPPED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'etag',
])

/** @param {Buffer} body @param {string | undefined} encoding */
function decode(body, encoding) {
  if (encoding === 'gzip') return zlib.gunzipSync(body)
  if (encoding === 'br') return zlib.brotliDecompressSync(body)
  if (encoding === 'deflate') return zlib.inflateSync(body)
  return body
}

/**
 * An HTTP server on a free port of 127.0.0.1 in front of `upstream` (the site's origin) that
 * passes everything through, except that an HTML page comes back as firstScreenOnly(page),
 * gzipped as the origin sends pages to a browser that accepts it.
 * @param {string} upstream e.g. http://127.0.0.1:3000
 * @returns {Promise<{ baseUrl: string, stop: () => Promise<void> }>}
 */
export async function startFirstScreenServer(upstream) {
  const target = new URL(upstream)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 })
  const server = http.createServer((request, response) => {
    const upstreamRequest = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (upstreamResponse) => {
        const type = String(upstreamResponse.headers['content-type'] ?? '')
        if (!type.startsWith('text/html')) {
          response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers)
          upstreamResponse.pipe(response)
          return
        }
        const chunks = []
        upstreamResponse.on('data', (chunk) => chunks.push(chunk))
        upstreamResponse.on('end', () => {
          const encoding = upstreamResponse.headers['content-encoding']
          const html = decode(Buffer.concat(chunks), encoding).toString('utf8')
          const headers = Object.fromEntries(
            Object.entries(upstreamResponse.headers).filter(([name]) => !DROPPED_HEADERS.has(name)),
          )
          let body = Buffer.from(firstScreenOnly(html))
          if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
            body = zlib.gzipSync(body)
            headers['content-encoding'] = 'gzip'
          }
          headers['content-length'] = String(body.length)
          response.writeHead(upstreamResponse.statusCode ?? 502, headers)
          response.end(body)
        })
      },
    )
    upstreamRequest.on('error', () => {
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
    request.pipe(upstreamRequest)
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(undefined))
  })
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        agent.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

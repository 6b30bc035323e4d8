// HTTPS + HTTP/2 in front of `next start`, the way the site is served in production.
//
// `next start` speaks HTTP/1.1 only, and Next's self-hosting guide puts a reverse proxy in front of
// it (https://nextjs.org/docs/app/guides/self-hosting); every host we would deploy to terminates
// TLS and multiplexes HTTP/2. Lighthouse's simulated throttling models the protocol it observes:
// over HTTP/1.1 it charges six separate connections, each with its own TCP slow start, which no
// visitor of the deployed site pays. The bench therefore loads the page through this proxy, with a
// throwaway self-signed certificate for 127.0.0.1 that Chromium accepts with
// --allow-insecure-localhost. Throughput and the Server Action are measured at the origin.

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import http2 from 'node:http2'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

// Connection-specific headers are forbidden in HTTP/2 (RFC 9113 §8.2.2).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
])

// What a rewritten page no longer matches: its length, encoding and version are the new body's.
const REWRITTEN = new Set(['content-length', 'content-encoding', 'etag'])
const DECODE = {
  gzip: promisify(zlib.gunzip),
  br: promisify(zlib.brotliDecompress),
  deflate: promisify(zlib.inflate),
}
const gzip = promisify(zlib.gzip)

/**
 * An HTML answer's body through `transform`, gzipped when the browser accepts it, as the origin
 * sends pages.
 * @param {import('node:http').IncomingMessage} upstreamResponse
 * @param {(html: string) => string} transform
 * @param {string | undefined} acceptEncoding the browser's
 */
async function rewrittenHtml(upstreamResponse, transform, acceptEncoding) {
  const chunks = []
  for await (const chunk of upstreamResponse) chunks.push(chunk)
  const encoded = Buffer.concat(chunks)
  const decode = DECODE[/** @type {keyof DECODE} */ (upstreamResponse.headers['content-encoding'])]
  const html = transform((decode ? await decode(encoded) : encoded).toString('utf8'))
  return /\bgzip\b/.test(acceptEncoding ?? '')
    ? { body: await gzip(html), encoding: 'gzip' }
    : { body: Buffer.from(html), encoding: null }
}

function selfSignedCertificate() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-tls-'))
  try {
    const result = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    if (result.error || result.status !== 0) {
      throw new Error(
        `openssl could not make a certificate for the HTTPS proxy (${result.error?.message ?? result.stderr.toString().trim()}); install openssl.`,
      )
    }
    return {
      key: readFileSync(path.join(dir, 'key.pem')),
      cert: readFileSync(path.join(dir, 'cert.pem')),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Starts the proxy on a free port of 127.0.0.1 and resolves with its origin and a stop function.
 * @param {string} upstream the origin of `next start`, e.g. http://127.0.0.1:3000
 * @param {{ transformHtml?: (html: string) => string }} [options] rewrites every HTML page on its
 *   way (the bench's control, first-screen.mjs); everything else passes as it is
 */
export async function startHttp2Proxy(upstream, { transformHtml } = {}) {
  const target = new URL(upstream)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 })
  const server = http2.createSecureServer({ ...selfSignedCertificate(), allowHTTP1: true })
  const sockets = new Set()
  server.on('secureConnection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })

  server.on('request', (request, response) => {
    const headers = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (!name.startsWith(':') && !HOP_BY_HOP.has(name)) headers[name] = value
    }
    headers.host = request.headers[':authority'] ?? request.headers.host
    headers['x-forwarded-proto'] = 'https'
    headers['x-forwarded-for'] = request.socket.remoteAddress ?? '127.0.0.1'

    const upstreamRequest = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers,
        agent,
      },
      (upstreamResponse) => {
        const rewrite =
          transformHtml &&
          String(upstreamResponse.headers['content-type'] ?? '').startsWith('text/html')
        for (const [name, value] of Object.entries(upstreamResponse.headers)) {
          if (HOP_BY_HOP.has(name) || value === undefined) continue
          if (!rewrite || !REWRITTEN.has(name)) response.setHeader(name, value)
        }
        if (!rewrite) {
          response.writeHead(upstreamResponse.statusCode ?? 502)
          upstreamResponse.pipe(response)
          return
        }
        rewrittenHtml(upstreamResponse, transformHtml, request.headers['accept-encoding']).then(
          ({ body, encoding }) => {
            if (encoding) response.setHeader('content-encoding', encoding)
            response.setHeader('content-length', body.length)
            response.writeHead(upstreamResponse.statusCode ?? 502)
            response.end(body)
          },
          () => {
            response.writeHead(502)
            response.end()
          },
        )
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
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    origin: `https://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        agent.destroy()
        server.close(() => resolve(undefined))
        // A browser may keep an idle connection open; do not wait for it.
        for (const socket of sockets) socket.destroy()
      }),
  }
}

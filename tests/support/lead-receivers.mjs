// The three places a lead goes (issue 46), as real servers the real clients talk to: an SMTP
// server (the smtp-server package) that keeps each message, a webhook receiver that verifies the
// signature with the standardwebhooks package, and an RD Station conversions double that answers
// the first conversion 429 with Retry-After. Each can be stopped and started again on its port.

import http from 'node:http'

import { SMTPServer } from 'smtp-server'
import { Webhook } from 'standardwebhooks'

/**
 * @typedef {{ port: number, url: string, stop: () => Promise<void> }} Running
 */

/** @param {http.Server | SMTPServer} server @param {number} port */
function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(undefined))
  })
}

/** @param {http.IncomingMessage | NodeJS.ReadableStream} stream */
async function readAll(stream) {
  const chunks = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The parts of a MIME message, decoded (quoted-printable or base64), by content type.
 * Enough for what nodemailer writes: one multipart/alternative of text/plain and text/html.
 * @param {string} raw
 * @returns {{ headers: string, parts: Record<string, string> }}
 */
export function parseMessage(raw) {
  const [headers = '', ...rest] = raw.split(/\r?\n\r?\n/)
  const body = rest.join('\r\n\r\n')
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ')
  const boundary = unfolded.match(/boundary="?([^";\r\n]+)"?/i)?.[1]
  /** @type {Record<string, string>} */
  const parts = {}
  const chunks = boundary ? body.split(`--${boundary}`).slice(1, -1) : [`${headers}\r\n\r\n${body}`]
  for (const chunk of chunks) {
    const [partHeaders = '', ...partBody] = chunk.replace(/^\r?\n/, '').split(/\r?\n\r?\n/)
    const content = partBody.join('\r\n\r\n')
    const type =
      partHeaders
        .match(/content-type:\s*([^;\r\n]+)/i)?.[1]
        ?.trim()
        .toLowerCase() ?? ''
    const encoding = partHeaders.match(/content-transfer-encoding:\s*(\S+)/i)?.[1]?.toLowerCase()
    let decoded = content
    if (encoding === 'base64')
      decoded = Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8')
    else if (encoding === 'quoted-printable')
      decoded = Buffer.from(
        content
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8')
    parts[type] = decoded.replace(/\r\n/g, '\n').replace(/\n$/, '')
  }
  return { headers: unfolded, parts }
}

/** Decodes an RFC 2047 header value (=?UTF-8?Q?...?= / =?UTF-8?B?...?=). @param {string} value */
export function decodeHeader(value) {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind, text) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (/** @type {string} */ __, /** @type {string} */ hex) =>
                String.fromCharCode(parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    )
}

/**
 * An SMTP server without TLS or required login, keeping every message it accepts.
 * @param {{ port: number, messages?: { from: string, to: string[], raw: string }[] }} options
 */
export async function startSmtpDouble({ port, messages = [] }) {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      readAll(stream).then(
        (raw) => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
          })
          callback()
        },
        (error) => callback(error),
      )
    },
  })
  await listen(server, port)
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  }
}

/**
 * Receives webhooks and verifies each with standardwebhooks; an unverified one is answered 400.
 * @param {{ port: number, secret: string, received?: { id: string, verified: boolean, body: any }[] }} options
 */
export async function startWebhookReceiver({ port, secret, received = [] }) {
  const webhook = new Webhook(secret)
  const sockets = new Set()
  const server = http.createServer(async (request, response) => {
    const body = await readAll(request)
    let verified = true
    let payload
    try {
      payload = webhook.verify(body, /** @type {Record<string, string>} */ (request.headers))
    } catch {
      verified = false
      payload = JSON.parse(body)
    }
    received.push({ id: String(request.headers['webhook-id']), verified, body: payload })
    response.writeHead(verified ? 204 : 400).end()
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await listen(server, port)
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks/lead`,
    received,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) /** @type {import('node:net').Socket} */ (socket).destroy()
        server.close(() => resolve(undefined))
      }),
  }
}

/**
 * RD Station's POST /platform/conversions?api_key=...: the first conversion is answered 429 with
 * Retry-After (seconds) when `throttleOnce` is set; every request is kept with its time.
 * @param {{ port: number, apiKey: string, throttleOnce?: number, requests?: { at: number, status: number, body: any }[] }} options
 */
export async function startRdStationDouble({ port, apiKey, throttleOnce, requests = [] }) {
  let throttled = false
  const sockets = new Set()
  const server = http.createServer(async (request, response) => {
    const body = await readAll(request)
    const url = new URL(request.url ?? '/', 'http://localhost')
    let status = 200
    if (request.method !== 'POST' || url.pathname !== '/platform/conversions') status = 404
    else if (url.searchParams.get('api_key') !== apiKey) status = 401
    else if (throttleOnce !== undefined && !throttled) {
      throttled = true
      status = 429
    }
    requests.push({ at: Date.now(), status, body: body ? JSON.parse(body) : null })
    response.writeHead(status, {
      'content-type': 'application/json',
      ...(status === 429 ? { 'retry-after': String(throttleOnce) } : {}),
    })
    response.end(
      status === 200 ? JSON.stringify({ event_uuid: `ev-${requests.length}` }) : '{"errors":{}}',
    )
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await listen(server, port)
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) /** @type {import('node:net').Socket} */ (socket).destroy()
        server.close(() => resolve(undefined))
      }),
  }
}

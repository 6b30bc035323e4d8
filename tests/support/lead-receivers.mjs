// The three places a lead goes (issues 46 and 49), as real servers the real clients talk to, as
// strict as the real ones: an SMTP server (the smtp-server package) that takes AUTH only over
// STARTTLS and keeps each message, a webhook receiver that verifies the signature with the
// standardwebhooks package, and an RD Station conversions double that refuses a conversion without
// its required fields and can answer the first 429 with Retry-After. Each can be stopped and
// started again on its port.

import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'

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

// From the project root, where vitest and Playwright run (Playwright loads this file as CommonJS,
// so it has no import.meta).
const TLS_DIR = path.resolve('tests', 'support', 'tls')
/** The CA that signed the SMTP double's certificate: trust it as a test, never in the site. */
export const TEST_CA_FILE = path.join(TLS_DIR, 'ca.pem')

/**
 * An SMTP server as the relays the site uses (Brevo, SES, Gmail) are: it offers STARTTLS and
 * takes AUTH only after it, with a certificate from a test CA (tests/support/tls) that the client
 * must trust, and refuses a wrong login with 535. `refuse` maps a recipient to the code it is
 * refused with (a 5xx, an unknown mailbox; a 4xx, a full one). Keeps each message it accepts.
 * @param {{ port: number, messages?: { from: string, to: string[], raw: string }[], user?: string, pass?: string, refuse?: Record<string, number>, logins?: { user: string, secure: boolean }[] }} options
 */
export async function startSmtpDouble({
  port,
  messages = [],
  user = 'vigia-site',
  pass = 'senha-do-relay',
  refuse = {},
  logins = [],
}) {
  const server = new SMTPServer({
    secure: false,
    key: fs.readFileSync(path.join(TLS_DIR, 'server.key')),
    cert: fs.readFileSync(path.join(TLS_DIR, 'server.pem')),
    authMethods: ['PLAIN', 'LOGIN'],
    // The default, said out loud: no AUTH before STARTTLS (smtp-server answers 538).
    allowInsecureAuth: false,
    authOptional: false,
    logger: false,
    onAuth(auth, session, callback) {
      logins.push({ user: String(auth.username), secure: Boolean(session.secure) })
      if (auth.username === user && auth.password === pass) callback(null, { user })
      else
        callback(
          Object.assign(new Error('5.7.8 Authentication credentials invalid'), {
            responseCode: 535,
          }),
        )
    },
    onRcptTo(address, session, callback) {
      const code = refuse[address.address]
      if (code === undefined) return callback()
      callback(
        Object.assign(new Error(code >= 500 ? '5.1.1 No such user' : '4.2.2 Mailbox full'), {
          responseCode: code,
        }),
      )
    },
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
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    messages,
    logins,
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

/** What RD Station requires of a conversion: without any of them it answers 400. */
const RD_REQUIRED = ['event_type', 'event_family', 'payload.conversion_identifier', 'payload.email']

/** @param {any} body @returns {string[]} the required fields missing or empty */
function rdMissing(body) {
  return RD_REQUIRED.filter((field) => {
    const value = field.split('.').reduce((at, key) => (at == null ? at : at[key]), body)
    return typeof value !== 'string' || value.trim() === ''
  })
}

/** RD's legal bases (developers.rdstation.com, "Bases Legais"): one category, these types and statuses. */
const RD_LEGAL_TYPES = [
  'pre_existent_contract',
  'consent',
  'legitimate_interest',
  'judicial_process',
  'vital_interest',
  'public_interest',
]

/**
 * What RD refuses in the optional fields we send (issue 65): legal_bases other than an array of
 * { category: 'communications', type, status: 'granted' | 'declined' }, tags other than an array of
 * lower-case strings without spaces, and a custom field (cf_*) that is not a string.
 * @param {any} payload @returns {string[]}
 */
function rdInvalid(payload) {
  const problems = []
  if ('legal_bases' in payload) {
    const bases = payload.legal_bases
    if (
      !Array.isArray(bases) ||
      bases.length === 0 ||
      !bases.every(
        (/** @type {any} */ base) =>
          base?.category === 'communications' &&
          RD_LEGAL_TYPES.includes(base?.type) &&
          ['granted', 'declined'].includes(base?.status),
      )
    )
      problems.push('payload.legal_bases')
  }
  if ('tags' in payload) {
    const tags = payload.tags
    if (
      !Array.isArray(tags) ||
      !tags.every(
        (/** @type {unknown} */ tag) => typeof tag === 'string' && /^[a-z0-9_-]+$/.test(tag),
      )
    )
      problems.push('payload.tags')
  }
  for (const [key, value] of Object.entries(payload))
    if (key.startsWith('cf_') && typeof value !== 'string') problems.push(`payload.${key}`)
  return problems
}

/**
 * RD Station's POST /platform/conversions?api_key=...: a body that is not JSON, or lacks
 * event_type, event_family, payload.conversion_identifier or payload.email, or has a malformed
 * legal_bases, tags or custom field (rdInvalid), is answered 400 as the real API does; the
 * first conversion is answered 429 with Retry-After (seconds) when `throttleOnce` is set; every
 * request is kept with its time.
 * @param {{ port: number, apiKey: string, throttleOnce?: number, requests?: { at: number, status: number, body: any }[] }} options
 */
export async function startRdStationDouble({ port, apiKey, throttleOnce, requests = [] }) {
  let throttled = false
  const sockets = new Set()
  const server = http.createServer(async (request, response) => {
    const body = await readAll(request)
    const url = new URL(request.url ?? '/', 'http://localhost')
    let status = 200
    /** @type {any} */
    let parsed = null
    try {
      parsed = body ? JSON.parse(body) : null
    } catch {
      parsed = null
    }
    if (request.method !== 'POST' || url.pathname !== '/platform/conversions') status = 404
    else if (url.searchParams.get('api_key') !== apiKey) status = 401
    else if (
      parsed === null ||
      rdMissing(parsed).length > 0 ||
      rdInvalid(parsed.payload ?? {}).length > 0
    )
      status = 400
    else if (throttleOnce !== undefined && !throttled) {
      throttled = true
      status = 429
    }
    requests.push({ at: Date.now(), status, body: parsed })
    response.writeHead(status, {
      'content-type': 'application/json',
      ...(status === 429 ? { 'retry-after': String(throttleOnce) } : {}),
    })
    response.end(
      status === 200
        ? JSON.stringify({ event_uuid: `ev-${requests.length}` })
        : status === 400
          ? JSON.stringify({
              errors: rdMissing(parsed ?? {}).map((field) => ({
                error_type: 'CANNOT_BE_NULL',
                error_message: `${field} cannot be null`,
              })),
            })
          : '{"errors":{}}',
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

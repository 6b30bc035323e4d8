import type http from 'node:http'

import { answerBeacon, BEACON_ANSWER_HEADERS } from '@/lib/analytics/beacon-endpoint'
import { BEACON_PATH } from '@/lib/analytics/beacon-constants'
import { addEarlyRequestHook } from '@/lib/early-requests'
import { BodyTooLargeError } from '@/lib/webhook/body'

// The visit beacon answered before Next's request handling (lib/early-requests.ts), with the same
// answers as the route (lib/analytics/beacon-endpoint.ts). Why: Next's routing, request objects,
// tracing and response pipeline cost about 1 ms of CPU per beacon, ten times the beacon's own
// work, and one instance must take 500 beacons/s (docs/analytics.md, "Speed").

/** From instrumentation.ts: POST /api/analytics/view is answered here from then on. */
export function installEarlyBeacon(): void {
  addEarlyRequestHook('visit-beacon', (request, response) => {
    if (request.method !== 'POST' || pathOf(request.url) !== BEACON_PATH) return false
    void answer(request, response)
    return true
  })
}

function pathOf(url: string | undefined): string {
  const path = url ?? ''
  const query = path.indexOf('?')
  return query === -1 ? path : path.slice(0, query)
}

async function answer(request: http.IncomingMessage, response: http.ServerResponse) {
  // As Next does before any route sees a request: the socket's address when no proxy gave one.
  request.headers['x-forwarded-for'] ??= request.socket.remoteAddress
  let count: (() => Promise<unknown>) | undefined
  try {
    const result = await answerBeacon(
      { headers: headersOf(request), readBody: (limit) => readBody(request, limit) },
      (work) => {
        count = work
      },
    )
    if (result.status === 204) {
      response.writeHead(204, BEACON_ANSWER_HEADERS).end()
    } else {
      send(response, result.status, result.error)
    }
  } catch (error) {
    // A visitor who left mid-body is owed no answer, and the log no line.
    if (request.destroyed && !request.complete) return
    console.error(
      `[analytics] A beacon could not be answered: ${error instanceof Error ? error.message : error}`,
    )
    if (!response.headersSent) send(response, 500, 'Não foi possível registrar a visita.')
    else response.destroy()
    return
  }
  // The answer has been handed to the socket; the count (recordView never throws) comes after.
  if (count) setImmediate(count)
}

function send(response: http.ServerResponse, status: number, error: string) {
  const body = JSON.stringify({ error })
  response
    .writeHead(status, {
      ...BEACON_ANSWER_HEADERS,
      'content-type': 'application/json',
      // Next's own headers (next.config.ts) are not added here; this one matters for a body.
      'x-content-type-options': 'nosniff',
      'content-length': Buffer.byteLength(body),
    })
    .end(body)
}

/** The few headers the answer reads, as Headers would give them. */
function headersOf(request: http.IncomingMessage): Pick<Headers, 'get'> {
  return {
    get(name) {
      const value = request.headers[name.toLowerCase()]
      if (value === undefined) return null
      return Array.isArray(value) ? value.join(', ') : value
    },
  }
}

/** The body as text, abandoned (and the rest discarded) as soon as it passes `limit` bytes. */
function readBody(request: http.IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? Number.NaN)
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      done()
      request.resume()
      reject(new BodyTooLargeError(limit))
    }
    const onEnd = () => {
      done()
      resolve(Buffer.concat(chunks).toString('utf8'))
    }
    const onError = (error: Error) => {
      done()
      reject(error)
    }
    // Closed before its end: the client went away (on error or not), and no 'end' will come.
    const onClose = () => onError(new Error('The beacon was abandoned mid-body'))
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose)
  })
}

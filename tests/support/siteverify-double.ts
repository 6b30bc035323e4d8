import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Turnstile's siteverify (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/)
 * on a local port, as strict as Cloudflare's: a token the widget was given (`solved()`) is good
 * once and for 300 s; used again or later it is `timeout-or-duplicate`, any other token
 * `invalid-input-response`, another secret `invalid-input-secret`. A good answer names where and
 * for what the widget was solved. `behaviour`: 'http-500' answers 500, 'hang' never answers.
 */
export const TOKEN_LIFETIME_MS = 300_000

type Solved = { at: number; used: boolean; hostname: string; action: string }

export async function startSiteverifyDouble({
  secret,
  hostname,
  action,
}: {
  secret: string
  hostname: string
  action: string
}) {
  const issued = new Map<string, Solved>()
  const received: URLSearchParams[] = []
  const state = { behaviour: 'answer' as 'answer' | 'http-500' | 'hang', count: 0 }

  function errorsFor(form: URLSearchParams): string[] {
    if (form.get('secret') !== secret) return ['invalid-input-secret']
    const token = form.get('response')
    if (!token) return ['missing-input-response']
    const solved = issued.get(token)
    if (!solved) return ['invalid-input-response']
    if (solved.used || Date.now() - solved.at > TOKEN_LIFETIME_MS) return ['timeout-or-duplicate']
    solved.used = true
    return []
  }

  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const form = new URLSearchParams(body)
      received.push(form)
      if (state.behaviour === 'hang') return
      if (state.behaviour === 'http-500') return res.writeHead(500).end()
      const errors = errorsFor(form)
      const solved = issued.get(form.get('response') ?? '')
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          success: errors.length === 0,
          'error-codes': errors,
          ...(errors.length === 0 && solved
            ? { hostname: solved.hostname, action: solved.action }
            : {}),
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    /** Every request's form (secret, response, remoteip). */
    received,
    /** The tokens it was asked about, in order. */
    tokens: () => received.map((form) => form.get('response') ?? ''),
    /** A token as the widget gets it on solving, `ageMs` ago, on `hostname` for `action`. */
    solved(options: { ageMs?: number; hostname?: string; action?: string } = {}): string {
      const token = `turnstile-token-${++state.count}`
      issued.set(token, {
        at: Date.now() - (options.ageMs ?? 0),
        used: false,
        hostname: options.hostname ?? hostname,
        action: options.action ?? action,
      })
      return token
    },
    set behaviour(value: 'answer' | 'http-500' | 'hang') {
      state.behaviour = value
    },
    reset() {
      received.length = 0
      state.behaviour = 'answer'
    },
    close() {
      server.closeAllConnections()
      server.close()
    },
  }
}

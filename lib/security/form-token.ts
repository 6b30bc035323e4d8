import 'server-only'

import { createHash, createHmac, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

import { serverEnv } from '@/lib/env'
import { sameSecret } from '@/lib/security/same-secret'

// The demo form's time trap (docs/security.md, "Bot trap"): the time the form was rendered, signed
// by the server. The page is prerendered, the same bytes for every visitor, so the token proves
// the post came from a form this site rendered, not how long the visitor took. Required on every
// post, with or without JavaScript, and good for FORM_TOKEN_MAX_AGE_MS only.

const KEY_FILE = path.join('.data', 'form-signing-key')

let cachedKey: Buffer | undefined

/**
 * FORM_SIGNING_SECRET, or a random key made once and kept in .data/form-signing-key, which
 * `next build` (whose prerender signs) and `next start` on the same machine share.
 */
function signingKey(): Buffer {
  if (cachedKey) return cachedKey
  if (serverEnv.formSigningSecret) {
    cachedKey = Buffer.from(serverEnv.formSigningSecret, 'utf8')
    return cachedKey
  }
  const file = path.resolve(/* turbopackIgnore: true */ process.cwd(), KEY_FILE)
  try {
    cachedKey = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex')
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    try {
      fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 })
    } catch (error) {
      // Another process made it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    cachedKey = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex')
  }
  if (cachedKey.length < 16) throw new Error(`${KEY_FILE} holds no usable key; delete it.`)
  return cachedKey
}

/**
 * The site's signature of `payload` for one purpose (the demo form's render time, a material's
 * download link): one key, a prefix per purpose so that no token signed for one passes for another.
 */
export function signFor(purpose: string, payload: string): string {
  return createHmac('sha256', signingKey()).update(`${purpose}:${payload}`).digest('base64url')
}

function mac(payload: string): string {
  return signFor('demo-form', payload)
}

/**
 * How long a signed render time is accepted: a token copied once cannot be replayed for ever.
 * A cached page can be older than this when a visitor opens it (ISR serves a stale page once
 * before regenerating it), so an expired but genuine token is not treated as a bot: the visitor
 * is asked to send again, with a fresh token and everything they typed (app/actions/demo-request.ts).
 */
export const FORM_TOKEN_MAX_AGE_MS = 24 * 60 * 60_000

/** "<ms since the epoch>.<signature>": the time this form was rendered, signed. */
export function signFormTimestamp(now = Date.now()): string {
  const time = String(Math.floor(now))
  return `${time}.${mac(time)}`
}

/** The time a signed token holds, or null when it is missing, malformed or not ours. */
export function verifyFormTimestamp(token: string): number | null {
  const match = /^(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!match) return null
  const [, time, signature] = match as unknown as [string, string, string]
  return sameSecret(signature, mac(time)) ? Number(time) : null
}

/** A client's submission key: a v4 UUID as crypto.randomUUID() makes it. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

export function isSubmissionKey(value: string): boolean {
  return UUID.test(value)
}

/**
 * What the rows store as chave_envio (64 hex digits): a digest of the form's own key, or, for a
 * post without JavaScript (no key: the cached HTML is the same for everyone), of the signed token
 * and the values sent, so the browser re-sending the same post is still the same submission.
 */
export function requestKeyDigest(
  input: { key: string } | { token: string; values: Record<string, string> },
): string {
  const source =
    'key' in input
      ? `key:${input.key}`
      : `form:${input.token}:${JSON.stringify(Object.entries(input.values).sort())}`
  return createHash('sha256').update(source).digest('hex')
}

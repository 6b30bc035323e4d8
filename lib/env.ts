import 'server-only'

// Every server-side environment variable is read and checked here, once, at start-up.
// Public Sanity settings live in sanity/env.ts because the Studio (browser code) needs them too.

import { randomBytes } from 'node:crypto'

function optional(name: string): string | undefined {
  const value = process.env[name]?.trim()
  return value ? value : undefined
}

function url(name: string): string | undefined {
  const value = optional(name)
  if (value === undefined) return undefined
  try {
    const parsed = new URL(value)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error()
  } catch {
    throw new Error(`${name}="${value}" is not an http(s) URL.`)
  }
  return value.replace(/\/+$/, '')
}

/** 127.0.0.0/8, ::1 and localhost: a request to them never leaves the machine. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  )
}

/**
 * An https URL, or undefined: a lead (name, e-mail, phone) and its credentials sent over plain
 * http can be read and changed on the way. http only to a loopback host, which never crosses a
 * network: the tests' local receivers (tests/e2e/lead-delivery.spec.ts). The value is left out
 * of the message: a webhook URL often is itself the secret (Zapier's, Make's).
 */
function httpsUrl(name: string): string | undefined {
  const value = optional(name)
  if (value === undefined) return undefined
  let parsed: URL | undefined
  try {
    parsed = new URL(value)
  } catch {
    // Reported below.
  }
  const local = parsed?.protocol === 'http:' && isLoopbackHost(parsed.hostname)
  if (parsed?.protocol !== 'https:' && !local) {
    throw new Error(
      `${name} must be an https:// URL (http only to a loopback host: 127.0.0.1, localhost, ::1): ` +
        'over http the lead would cross the network readable by anyone on the way.',
    )
  }
  return value.replace(/\/+$/, '')
}

/** A URL with one of `protocols`, or undefined; `problem` says what is wrong with any other. */
function urlOf(name: string, protocols: string[], problem: (value: string) => string) {
  const value = optional(name)
  if (value === undefined) return undefined
  let protocol = ''
  try {
    protocol = new URL(value).protocol
  } catch {
    // Reported below.
  }
  if (!protocols.includes(protocol)) throw new Error(problem(value))
  return value
}

/** A redis:// or rediss:// URL, or undefined. */
function redisUrl(name: string): string | undefined {
  return urlOf(
    name,
    ['redis:', 'rediss:'],
    (value) => `${name}="${value}" is not a redis:// or rediss:// URL.`,
  )
}

function integer(name: string, fallback: number, min: number, max: number): number {
  const value = optional(name)
  if (value === undefined) return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new Error(`${name}="${value}" must be a whole number from ${min} to ${max}.`)
  }
  return parsed
}

/** A comma-separated list of ISO 3166-1 alpha-2 country codes, upper-cased. */
function countries(name: string, fallback: string[]): string[] {
  const value = optional(name)
  if (value === undefined) return fallback
  const list = value
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter(Boolean)
  const bad = list.find((code) => !/^[A-Z]{2}$/.test(code))
  if (bad !== undefined || list.length === 0) {
    throw new Error(
      `${name}="${value}" must be two-letter country codes separated by commas (BR,PT).`,
    )
  }
  return [...new Set(list)]
}

/** A comma-separated list of host names (no scheme, no path), lower-cased. */
function hosts(name: string): string[] {
  const value = optional(name)
  if (value === undefined) return []
  const list = value
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean)
  const bad = list.find(
    (host) => !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(host),
  )
  if (bad !== undefined) {
    throw new Error(`${name}: "${bad}" is not a host name such as www.example.com.br.`)
  }
  return list
}

/** A postgres:// or postgresql:// connection string, or undefined. */
function postgresUrl(name: string): string | undefined {
  const value = optional(name)
  if (value === undefined) return undefined
  let protocol = ''
  try {
    protocol = new URL(value).protocol
  } catch {
    // Reported below.
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    // Not the value itself: it holds a password.
    throw new Error(`${name} is not a postgres:// or postgresql:// connection string.`)
  }
  return value
}

/** A secret of at least `min` characters, or undefined; `hint` says how to make one. */
function secret(name: string, min = 16, hint = ''): string | undefined {
  const value = optional(name)
  if (value !== undefined && value.length < min)
    throw new Error(`${name} must be at least ${min} characters long.${hint}`)
  return value
}

/** Both keys set: the form uses Cloudflare Turnstile. Neither: it does not. One alone is a mistake. */
function turnstile(): { siteKey: string; secretKey: string; verifyUrl: string } | undefined {
  const siteKey = optional('TURNSTILE_SITE_KEY')
  const secretKey = optional('TURNSTILE_SECRET_KEY')
  if (siteKey === undefined && secretKey === undefined) return undefined
  if (siteKey === undefined || secretKey === undefined) {
    const missing = siteKey === undefined ? 'TURNSTILE_SITE_KEY' : 'TURNSTILE_SECRET_KEY'
    throw new Error(
      `${missing} is not set, but its partner is. Set both TURNSTILE_SITE_KEY and ` +
        'TURNSTILE_SECRET_KEY to check demo requests with Cloudflare Turnstile, or neither.',
    )
  }
  return {
    siteKey,
    secretKey,
    verifyUrl:
      url('TURNSTILE_VERIFY_URL') ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  }
}

/** True for keys that bypass row-level security: a legacy service_role JWT or a new sb_secret_ key. */
function isSecretSupabaseKey(key: string): boolean {
  if (key.startsWith('sb_secret_')) return true
  const payload = key.split('.')[1]
  if (!payload) return false
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      role?: unknown
    }
    return claims.role === 'service_role'
  } catch {
    return false
  }
}

/** Both set: leads go to Supabase. Neither: the embedded store. One alone is a mistake. */
function supabase(): { url: string; anonKey: string } | undefined {
  const supabaseUrl = url('SUPABASE_URL')
  const anonKey = optional('SUPABASE_ANON_KEY')
  if (supabaseUrl === undefined && anonKey === undefined) return undefined
  if (supabaseUrl === undefined || anonKey === undefined) {
    const missing = supabaseUrl === undefined ? 'SUPABASE_URL' : 'SUPABASE_ANON_KEY'
    throw new Error(
      `${missing} is not set, but its partner is. Set both SUPABASE_URL and SUPABASE_ANON_KEY to ` +
        'store demo requests in Supabase, or neither to use the embedded store.',
    )
  }
  if (isSecretSupabaseKey(anonKey)) {
    throw new Error(
      'SUPABASE_ANON_KEY holds a secret (service_role) key, which bypasses the row-level security ' +
        'that keeps leads unreadable. Use the project’s anon (publishable) key.',
    )
  }
  return { url: supabaseUrl, anonKey }
}

/** An smtp:// or smtps:// URL (user and password in it), or undefined. */
function smtpUrl(name: string): string | undefined {
  // The message leaves the value out: it holds a password.
  return urlOf(
    name,
    ['smtp:', 'smtps:'],
    () => `${name} is not an smtp:// or smtps:// URL (smtp://user:pass@host:587).`,
  )
}

const EMAIL_ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/

/** A comma-separated list of e-mail addresses. */
function addresses(name: string): string[] | undefined {
  const value = optional(name)
  if (value === undefined) return undefined
  const list = value
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean)
  const bad = list.find((address) => !EMAIL_ADDRESS.test(address))
  if (bad !== undefined || list.length === 0)
    throw new Error(`${name} must be e-mail addresses separated by commas ("${bad ?? value}").`)
  return list
}

/**
 * Where each lead goes besides the two tables (lib/leads/delivery, docs/leads.md): each part
 * optional, each pair both-or-neither. None set: nothing is sent, as before.
 */
function leadDelivery() {
  const pair = <A, B>(a: [string, A | undefined], b: [string, B | undefined]) => {
    if ((a[1] === undefined) !== (b[1] === undefined)) {
      throw new Error(
        `${a[1] === undefined ? a[0] : b[0]} is not set, but ${a[1] === undefined ? b[0] : a[0]} ` +
          `is. Set both ${a[0]} and ${b[0]}, or neither.`,
      )
    }
    return a[1] !== undefined && b[1] !== undefined ? ([a[1], b[1]] as const) : undefined
  }
  const mail = pair(
    ['LEAD_NOTIFY_TO', addresses('LEAD_NOTIFY_TO')],
    ['SMTP_URL', smtpUrl('SMTP_URL')],
  )
  const from = optional('LEAD_NOTIFY_FROM')
  if (from !== undefined && !EMAIL_ADDRESS.test(from.replace(/^.*<(.*)>$/, '$1')))
    throw new Error(`LEAD_NOTIFY_FROM="${from}" is not an e-mail address.`)
  const webhookSecret = optional('LEAD_WEBHOOK_SECRET')
  if (webhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/]{22,}={0,2}$/.test(webhookSecret))
    throw new Error(
      'LEAD_WEBHOOK_SECRET must be whsec_ and at least 16 random bytes in base64 (Standard Webhooks): echo whsec_$(openssl rand -base64 32)',
    )
  const hook = pair(
    ['LEAD_WEBHOOK_URL', httpsUrl('LEAD_WEBHOOK_URL')],
    ['LEAD_WEBHOOK_SECRET', webhookSecret],
  )
  const rdKey = optional('RDSTATION_API_KEY')
  // Checked even without the key, so a bad value is named at start, not once the key is added.
  const rdUrl = httpsUrl('RDSTATION_API_URL') ?? 'https://api.rd.services'
  return {
    email: mail ? { to: mail[0], smtpUrl: mail[1], from } : undefined,
    webhook: hook ? { url: hook[0], secret: hook[1] } : undefined,
    rdstation: rdKey ? { apiKey: rdKey, apiUrl: rdUrl } : undefined,
  }
}

/**
 * INTERNAL_API_SECRET, or one made when this process starts. Kept on globalThis: Next bundles
 * proxy.ts and the routes separately, each with its own copy of this module, and all of them must
 * agree within one server.
 */
function internalApiSecret(): string {
  const key = Symbol.for('vigia.internalApiSecret')
  const store = globalThis as Record<symbol, string | undefined>
  const secret =
    optional('INTERNAL_API_SECRET') ?? store[key] ?? randomBytes(32).toString('base64url')
  if (secret.length < 16)
    throw new Error('INTERNAL_API_SECRET must be at least 16 characters long.')
  store[key] = secret
  return secret
}

export const serverEnv = {
  /** The public origin, for canonical URLs, the sitemap and social cards. */
  siteUrl: url('NEXT_PUBLIC_SITE_URL') ?? 'http://localhost:3000',
  /**
   * How many reverse proxies we own sit in front of `next start` (Vercel, nginx, a load
   * balancer...). Each appends the address it saw to X-Forwarded-For, so the visitor is the entry
   * this many places from the right; anything left of it was written by the visitor and can lie.
   */
  trustedProxyHops: integer('TRUSTED_PROXY_HOPS', 1, 0, 10),
  /** Demo requests accepted per visitor IP (an IPv6 visitor's /64) per minute. */
  demoRateLimitPerMinute: integer('DEMO_RATE_LIMIT_PER_MINUTE', 5, 1, 1000),
  /** Demo requests accepted per phone number and per e-mail address per hour. */
  demoRateLimitPerContactPerHour: integer('DEMO_RATE_LIMIT_PER_CONTACT_PER_HOUR', 3, 1, 1000),
  /** Demo requests one instance accepts per minute from everyone together. */
  demoRateLimitGlobalPerMinute: integer('DEMO_RATE_LIMIT_GLOBAL_PER_MINUTE', 60, 1, 100_000),
  /** Review-link lookups (/revisao/<token>) accepted per visitor IP per minute (proxy.ts). */
  reviewRateLimitPerMinute: integer('REVIEW_RATE_LIMIT_PER_MINUTE', 10, 1, 1000),
  /** Review-link lookups one instance accepts per minute from everyone together. */
  reviewRateLimitGlobalPerMinute: integer('REVIEW_RATE_LIMIT_GLOBAL_PER_MINUTE', 60, 1, 100_000),
  /** Savings-calculator pages (/calculadora, rendered per request) per visitor IP per minute. */
  calculatorRateLimitPerMinute: integer('CALCULATOR_RATE_LIMIT_PER_MINUTE', 30, 1, 1000),
  /** Savings-calculator pages one instance renders per minute for everyone together. */
  calculatorRateLimitGlobalPerMinute: integer(
    'CALCULATOR_RATE_LIMIT_GLOBAL_PER_MINUTE',
    600,
    1,
    100_000,
  ),
  /** Countries a lead's phone may be from (ISO codes); Brazil only unless opened. */
  leadPhoneCountries: countries('LEAD_PHONE_COUNTRIES', ['BR']),
  /**
   * Signs the form's no-JavaScript timestamp (lib/security/form-token.ts). Unset, a key is made
   * once and kept in .data/form-signing-key, which `next build` and `next start` on one machine
   * share; with several machines, set it.
   */
  formSigningSecret: optional('FORM_SIGNING_SECRET'),
  /** Cloudflare Turnstile on the demo form; unset, the form works as before. */
  turnstile: turnstile(),
  /** Hosts a redirect document may send visitors to with https (besides the site's own paths). */
  redirectAllowedHosts: hosts('REDIRECT_ALLOWED_HOSTS'),
  /** The Supabase project demo requests go to; unset, they go to the embedded PGlite store. */
  supabase: supabase(),
  /** Budget for both Supabase inserts of one request, under the visitor's ~10 s time-out. */
  supabaseTimeoutMs: integer('SUPABASE_TIMEOUT_MS', 8000, 100, 60_000),
  /** Folder of the embedded lead store (git-ignored .data/). */
  leadsDataDir: optional('LEADS_DATA_DIR') ?? '.data/leads',
  /** E-mail, signed webhook and RD Station destinations of each lead (docs/leads.md). */
  leadDelivery: leadDelivery(),
  /**
   * The courier's own login to the Supabase database, a role granted lead_courier only: it reads
   * and marks the deliveries the database queues. Never the analytics login's, which must not read
   * leads (issue 49). Unused with the embedded store.
   */
  leadDeliveryDatabaseUrl: postgresUrl('LEAD_DELIVERY_DATABASE_URL'),
  /** Replaces api.sanity.io, for a proxy or a local Content Lake test double. */
  sanityApiHost: url('SANITY_API_HOST'),
  /** Replaces Sanity's image CDN (https://cdn.sanity.io), for a proxy or the test double. */
  sanityImageHost: url('SANITY_IMAGE_HOST'),
  /**
   * Shared with the Sanity webhook that calls POST /api/revalidate. Unset, the route refuses
   * every call (500) rather than accept unsigned ones.
   */
  sanityRevalidateSecret: optional('SANITY_REVALIDATE_SECRET'),
  /**
   * How long the webhook waits for the Content Lake to become consistent before marking the
   * type's pages stale (docs/publishing.md). Lowered only by the end-to-end builds, so the suite
   * waits less; one test keeps the default.
   */
  webhookConsistencyDelayMs: integer('SANITY_WEBHOOK_CONSISTENCY_DELAY_MS', 3000, 0, 10_000),
  /** A Viewer token: draft mode reads drafts with it. Never sent to the browser. */
  sanityApiReadToken: optional('SANITY_API_READ_TOKEN'),
  /**
   * Shared by several instances: cache tag revalidations (lib/cache/cache-handler.mjs) and the
   * demo-request rate limit, through lib/redis/connection.mjs, which reads it itself because Next
   * loads the cache handler outside the app. Unset: both stay in this process.
   */
  redisUrl: redisUrl('REDIS_URL'),
  /** The front's purge endpoint (lib/cdn/purge.ts); unset, publishing purges nothing. */
  cdnPurgeUrl: url('CDN_PURGE_URL'),
  /** Sent as `Authorization: Bearer <token>` to CDN_PURGE_URL. */
  cdnPurgeToken: optional('CDN_PURGE_TOKEN'),
  /**
   * Sent as `X-Health-Token` to /api/health, it shows the details (modes, problems, paths);
   * otherwise only a request with the internal secret gets them, never one for where it seems to
   * come from (lib/health.ts). Sent by uptime monitors from anywhere, so long enough not to be
   * guessed.
   */
  healthDetailsToken: secret('HEALTH_DETAILS_TOKEN', 32, ' Make one with: openssl rand -hex 32'),
  /**
   * Sent by the server to itself (proxy.ts reading /api/redirects, the webhook's warm-up) in
   * X-Internal-Secret; any other request for an internal route is answered 404. Each instance
   * only ever calls its own origin, so one made at start per process works with no setting.
   */
  internalApiSecret: internalApiSecret(),
  /**
   * Sent as `Authorization: Bearer <token>` to GET /api/analytics (compared in constant time);
   * Studio users of the project are let in with their own Sanity token. Unset: Studio users only.
   */
  analyticsReadToken: secret('ANALYTICS_READ_TOKEN'),
  /**
   * Where the visit counts go (docs/analytics.md, "Production"): a PostgreSQL connection string for
   * a role granted analytics_writer and analytics_reader (the Supabase project's database).
   * Unset: the embedded PGlite beside the leads.
   */
  analyticsDatabaseUrl: postgresUrl('ANALYTICS_DATABASE_URL'),
  /** How often buffered visit counts are written (at most every 10 s). */
  analyticsFlushIntervalMs: integer('ANALYTICS_FLUSH_INTERVAL_MS', 10_000, 100, 10_000),
  /** Beacons accepted per visitor address (an IPv6 visitor's /64) per minute, per instance. */
  analyticsRateLimitPerMinute: integer('ANALYTICS_RATE_LIMIT_PER_MINUTE', 120, 1, 100_000),
  /**
   * Next leaves SIGTERM and SIGINT to the app (Next's own variable): the visit counter then writes
   * its buffer and exits (lib/analytics, docs/analytics.md).
   */
  manualSignalHandling: optional('NEXT_MANUAL_SIG_HANDLE') !== undefined,
  /** Beacons one instance accepts per minute from everyone together. */
  analyticsRateLimitGlobalPerMinute: integer(
    'ANALYTICS_RATE_LIMIT_GLOBAL_PER_MINUTE',
    120_000,
    1,
    10_000_000,
  ),
}

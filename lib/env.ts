import 'server-only'

// Every server-side environment variable is read and checked here, once, at start-up, by zod
// schemas: a bad value stops the server with one error naming every bad variable. Public Sanity
// settings live in sanity/env.ts because the Studio (browser code) needs them too.

import { randomBytes } from 'node:crypto'

import * as z from 'zod'

/** One variable: its name, and the schema that reads it from the environment. */
type Variable<T> = readonly [name: string, schema: z.ZodType<T, unknown>]
/** The schema of a set value, made for the variable's name so that its message can say it. */
type Check<T> = (name: string) => z.ZodType<T, string>

/** Blank is unset (`X=` in an .env file); values are trimmed. */
const setValue = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined

/** The variable `name`, checked by `check` when set; unset, `fallback`. */
function read<T>(name: string, check: Check<T>): Variable<T | undefined>
function read<T>(name: string, check: Check<T>, fallback: T): Variable<T>
function read<T>(name: string, check: Check<T>, fallback?: T): Variable<T | undefined> {
  return [name, z.preprocess(setValue, check(name).optional()).transform((v) => v ?? fallback)]
}

const text: Check<string> = () => z.string()

/** A URL whose scheme `protocol` matches; `problem` says what is wrong with any other value. */
const urlOf =
  (protocol: RegExp, problem: (name: string, value: unknown) => string): Check<string> =>
  (name) =>
    z.url({ protocol, error: (iss) => problem(name, iss.input) })
const withoutTrailingSlash =
  (check: Check<string>): Check<string> =>
  (name) =>
    check(name).transform((url) => url.replace(/\/+$/, ''))
const httpUrl = withoutTrailingSlash(
  urlOf(/^https?$/, (name, value) => `${name}="${value}" is not an http(s) URL.`),
)
const redisUrl = urlOf(
  /^rediss?$/,
  (name, value) => `${name}="${value}" is not a redis:// or rediss:// URL.`,
)
// These two leave the value out of the message: it holds a password.
const smtpUrl = urlOf(
  /^smtps?$/,
  (name) => `${name} is not an smtp:// or smtps:// URL (smtp://user:pass@host:587).`,
)
const postgresUrl = urlOf(
  /^postgres(ql)?$/,
  (name) => `${name} is not a postgres:// or postgresql:// connection string.`,
)

/**
 * https, or http only to a loopback host (127.0.0.0/8, localhost, ::1), which never crosses a
 * network: the tests' local receivers (tests/e2e/lead-delivery.spec.ts). A lead (name, e-mail,
 * phone) and its credentials sent over plain http can be read and changed on the way. The value
 * is left out of the message: a webhook URL often is itself the secret (Zapier's, Make's).
 */
const httpsUrl = withoutTrailingSlash((name) =>
  z.union(
    [
      z.url({ protocol: /^https$/ }),
      z.url({ protocol: /^http$/, hostname: /^(localhost|\[::1\]|127(\.\d{1,3}){3})$/ }),
    ],
    {
      error:
        `${name} must be an https:// URL (http only to a loopback host: 127.0.0.1, localhost, ` +
        '::1): over http the lead would cross the network readable by anyone on the way.',
    },
  ),
)

/** At least `min` characters; `hint` says how to make one. */
const secret =
  (min = 16, hint = ''): Check<string> =>
  (name) =>
    z.string().min(min, `${name} must be at least ${min} characters long.${hint}`)

const integer =
  (min: number, max: number): Check<number> =>
  (name) =>
    z
      .string()
      .refine((value) => z.coerce.number().int().min(min).max(max).safeParse(value).success, {
        error: (iss) => `${name}="${iss.input}" must be a whole number from ${min} to ${max}.`,
      })
      .transform(Number)

/** Comma-separated items, each cleaned by `clean` and matching `item`; `problem` names the bad one. */
const list =
  (
    item: RegExp,
    problem: (name: string, value: string, bad: string | undefined) => string,
    { clean = (part: string) => part, min = 1 } = {},
  ): Check<string[]> =>
  (name) =>
    z.string().transform((value, ctx) => {
      const items = value
        .split(',')
        .map((part) => clean(part.trim()))
        .filter(Boolean)
      const bad = items.find((part) => !item.test(part))
      if (bad === undefined && items.length >= min) return [...new Set(items)]
      ctx.addIssue({ code: 'custom', input: value, message: problem(name, value, bad) })
      return z.NEVER
    })

const EMAIL_ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/

/** True for keys that bypass row-level security: a legacy service_role JWT or a new sb_secret_ key. */
function isSecretSupabaseKey(key: string): boolean {
  if (key.startsWith('sb_secret_')) return true
  try {
    const payload = Buffer.from(key.split('.')[1] ?? '', 'base64url').toString('utf8')
    return (JSON.parse(payload) as { role?: unknown }).role === 'service_role'
  } catch {
    return false
  }
}

/** One object schema over the environment, each setting under its own key. */
function settingsOf<S extends Record<string, Variable<unknown>>>(settings: S) {
  const entries = Object.entries(settings)
  return z
    .object(Object.fromEntries(entries.map(([, [name, schema]]) => [name, schema])))
    .transform(
      (values) =>
        Object.fromEntries(entries.map(([key, [name]]) => [key, values[name]])) as {
          [K in keyof S]: S[K] extends Variable<infer T> ? T : never
        },
    )
}

const settings = settingsOf({
  /** The public origin, for canonical URLs, the sitemap and social cards. */
  siteUrl: read('NEXT_PUBLIC_SITE_URL', httpUrl, 'http://localhost:3000'),
  /**
   * How many reverse proxies we own sit in front of `next start` (Vercel, nginx, a load
   * balancer...). Each appends the address it saw to X-Forwarded-For, so the visitor is the entry
   * this many places from the right; anything left of it was written by the visitor and can lie.
   */
  trustedProxyHops: read('TRUSTED_PROXY_HOPS', integer(0, 10), 1),
  /** Demo requests accepted per visitor IP (an IPv6 visitor's /64) per minute. */
  demoRateLimitPerMinute: read('DEMO_RATE_LIMIT_PER_MINUTE', integer(1, 1000), 5),
  /** Demo requests accepted per phone number and per e-mail address per hour. */
  demoRateLimitPerContactPerHour: read('DEMO_RATE_LIMIT_PER_CONTACT_PER_HOUR', integer(1, 1000), 3),
  /** Demo requests one instance accepts per minute from everyone together. */
  demoRateLimitGlobalPerMinute: read('DEMO_RATE_LIMIT_GLOBAL_PER_MINUTE', integer(1, 100_000), 60),
  /** Review-link lookups (/revisao/<token>) accepted per visitor IP per minute (proxy.ts). */
  reviewRateLimitPerMinute: read('REVIEW_RATE_LIMIT_PER_MINUTE', integer(1, 1000), 10),
  /** Review-link lookups one instance accepts per minute from everyone together. */
  reviewRateLimitGlobalPerMinute: read(
    'REVIEW_RATE_LIMIT_GLOBAL_PER_MINUTE',
    integer(1, 100_000),
    60,
  ),
  /** Savings-calculator pages (/calculadora, rendered per request) per visitor IP per minute. */
  calculatorRateLimitPerMinute: read('CALCULATOR_RATE_LIMIT_PER_MINUTE', integer(1, 1000), 30),
  /** Savings-calculator pages one instance renders per minute for everyone together. */
  calculatorRateLimitGlobalPerMinute: read(
    'CALCULATOR_RATE_LIMIT_GLOBAL_PER_MINUTE',
    integer(1, 100_000),
    600,
  ),
  /** Countries a lead's phone may be from (ISO codes); Brazil only unless opened. */
  leadPhoneCountries: read(
    'LEAD_PHONE_COUNTRIES',
    list(
      /^[A-Z]{2}$/,
      (name, value) =>
        `${name}="${value}" must be two-letter country codes separated by commas (BR,PT).`,
      { clean: (code) => code.toUpperCase() },
    ),
    ['BR'],
  ),
  /**
   * Signs the form's no-JavaScript timestamp (lib/security/form-token.ts). Unset, a key is made
   * once and kept in .data/form-signing-key, which `next build` and `next start` on one machine
   * share; with several machines, set it.
   */
  formSigningSecret: read('FORM_SIGNING_SECRET', text),
  turnstileSiteKey: read('TURNSTILE_SITE_KEY', text),
  turnstileSecretKey: read('TURNSTILE_SECRET_KEY', text),
  turnstileVerifyUrl: read(
    'TURNSTILE_VERIFY_URL',
    httpUrl,
    'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  ),
  /** Hosts a redirect document may send visitors to with https (besides the site's own paths). */
  redirectAllowedHosts: read(
    'REDIRECT_ALLOWED_HOSTS',
    list(
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/,
      (name, _, bad) => `${name}: "${bad}" is not a host name such as www.example.com.br.`,
      { clean: (host) => host.toLowerCase(), min: 0 },
    ),
    [],
  ),
  supabaseUrl: read('SUPABASE_URL', httpUrl),
  supabaseAnonKey: read('SUPABASE_ANON_KEY', (name) =>
    z.string().refine((key) => !isSecretSupabaseKey(key), {
      error:
        `${name} holds a secret (service_role) key, which bypasses the row-level security ` +
        'that keeps leads unreadable. Use the project’s anon (publishable) key.',
    }),
  ),
  /** Budget for both Supabase inserts of one request, under the visitor's ~10 s time-out. */
  supabaseTimeoutMs: read('SUPABASE_TIMEOUT_MS', integer(100, 60_000), 8000),
  /** Folder of the embedded lead store (git-ignored .data/). */
  leadsDataDir: read('LEADS_DATA_DIR', text, '.data/leads'),
  leadNotifyTo: read(
    'LEAD_NOTIFY_TO',
    list(
      EMAIL_ADDRESS,
      (name, value, bad) =>
        `${name} must be e-mail addresses separated by commas ("${bad ?? value}").`,
    ),
  ),
  smtpUrl: read('SMTP_URL', smtpUrl),
  leadNotifyFrom: read('LEAD_NOTIFY_FROM', (name) =>
    z.string().refine((from) => EMAIL_ADDRESS.test(from.replace(/^.*<(.*)>$/, '$1')), {
      error: (iss) => `${name}="${iss.input}" is not an e-mail address.`,
    }),
  ),
  leadWebhookUrl: read('LEAD_WEBHOOK_URL', httpsUrl),
  leadWebhookSecret: read('LEAD_WEBHOOK_SECRET', (name) =>
    z
      .string()
      .regex(
        /^whsec_[A-Za-z0-9+/]{22,}={0,2}$/,
        `${name} must be whsec_ and at least 16 random bytes in base64 (Standard Webhooks): ` +
          'echo whsec_$(openssl rand -base64 32)',
      ),
  ),
  rdstationApiKey: read('RDSTATION_API_KEY', text),
  // Checked even without the key, so a bad value is named at start, not once the key is added.
  rdstationApiUrl: read('RDSTATION_API_URL', httpsUrl, 'https://api.rd.services'),
  /**
   * The courier's own login to the Supabase database, a role granted lead_courier only: it reads
   * and marks the deliveries the database queues. Never the analytics login's, which must not read
   * leads (issue 49). Unused with the embedded store.
   */
  leadDeliveryDatabaseUrl: read('LEAD_DELIVERY_DATABASE_URL', postgresUrl),
  /** Replaces api.sanity.io, for a proxy or a local Content Lake test double. */
  sanityApiHost: read('SANITY_API_HOST', httpUrl),
  /** Replaces Sanity's image CDN (https://cdn.sanity.io), for a proxy or the test double. */
  sanityImageHost: read('SANITY_IMAGE_HOST', httpUrl),
  /**
   * Shared with the Sanity webhook that calls POST /api/revalidate. Unset, the route refuses
   * every call (500) rather than accept unsigned ones.
   */
  sanityRevalidateSecret: read('SANITY_REVALIDATE_SECRET', text),
  /**
   * How long the webhook waits for the Content Lake to become consistent before marking the
   * type's pages stale (docs/publishing.md). Lowered only by the end-to-end builds, so the suite
   * waits less; one test keeps the default.
   */
  webhookConsistencyDelayMs: read('SANITY_WEBHOOK_CONSISTENCY_DELAY_MS', integer(0, 10_000), 3000),
  /** A Viewer token: draft mode reads drafts with it. Never sent to the browser. */
  sanityApiReadToken: read('SANITY_API_READ_TOKEN', text),
  /**
   * Shared by several instances: cache tag revalidations (lib/cache/cache-handler.mjs) and the
   * demo-request rate limit, through lib/redis/connection.mjs, which reads it itself because Next
   * loads the cache handler outside the app. Unset: both stay in this process.
   */
  redisUrl: read('REDIS_URL', redisUrl),
  /** The front's purge endpoint (lib/cdn/purge.ts); unset, publishing purges nothing. */
  cdnPurgeUrl: read('CDN_PURGE_URL', httpUrl),
  /** Sent as `Authorization: Bearer <token>` to CDN_PURGE_URL. */
  cdnPurgeToken: read('CDN_PURGE_TOKEN', text),
  /**
   * Sent as `X-Health-Token` to /api/health, it shows the details (modes, problems, paths);
   * otherwise only a request with the internal secret gets them, never one for where it seems to
   * come from (lib/health.ts). Sent by uptime monitors from anywhere, so long enough not to be
   * guessed.
   */
  healthDetailsToken: read(
    'HEALTH_DETAILS_TOKEN',
    secret(32, ' Make one with: openssl rand -hex 32'),
  ),
  configuredInternalApiSecret: read('INTERNAL_API_SECRET', secret()),
  /**
   * Sent as `Authorization: Bearer <token>` to GET /api/analytics (compared in constant time);
   * Studio users of the project are let in with their own Sanity token. Unset: Studio users only.
   */
  analyticsReadToken: read('ANALYTICS_READ_TOKEN', secret()),
  /**
   * Where the visit counts go (docs/analytics.md, "Production"): a PostgreSQL connection string for
   * a role granted analytics_writer and analytics_reader (the Supabase project's database).
   * Unset: the embedded PGlite beside the leads.
   */
  analyticsDatabaseUrl: read('ANALYTICS_DATABASE_URL', postgresUrl),
  /** How often buffered visit counts are written (at most every 10 s). */
  analyticsFlushIntervalMs: read('ANALYTICS_FLUSH_INTERVAL_MS', integer(100, 10_000), 10_000),
  /** Beacons accepted per visitor address (an IPv6 visitor's /64) per minute, per instance. */
  analyticsRateLimitPerMinute: read('ANALYTICS_RATE_LIMIT_PER_MINUTE', integer(1, 100_000), 120),
  /** Beacons one instance accepts per minute from everyone together. */
  analyticsRateLimitGlobalPerMinute: read(
    'ANALYTICS_RATE_LIMIT_GLOBAL_PER_MINUTE',
    integer(1, 10_000_000),
    120_000,
  ),
  nextManualSigHandle: read('NEXT_MANUAL_SIG_HANDLE', text),
})

/**
 * Settings that come in twos: both set, or neither; one alone is a mistake. A schema of its own
 * so that it runs even when a value above is bad (an object's own checks wait for its fields).
 */
const PAIRS = [
  [
    'TURNSTILE_SITE_KEY',
    'TURNSTILE_SECRET_KEY',
    ' to check demo requests with Cloudflare Turnstile, or neither',
  ],
  [
    'SUPABASE_URL',
    'SUPABASE_ANON_KEY',
    ' to store demo requests in Supabase, or neither to use the embedded store',
  ],
  ['LEAD_NOTIFY_TO', 'SMTP_URL', ', or neither'],
  ['LEAD_WEBHOOK_URL', 'LEAD_WEBHOOK_SECRET', ', or neither'],
] as const
const pairs = z.record(z.string(), z.string().optional()).check((ctx) => {
  for (const [a, b, otherwise] of PAIRS) {
    const [hasA, hasB] = [a, b].map((name) => setValue(ctx.value[name]) !== undefined)
    if (hasA === hasB) continue
    const [missing, partner] = hasA ? [b, a] : [a, b]
    ctx.issues.push({
      code: 'custom',
      input: ctx.value[missing],
      path: [missing],
      message: `${missing} is not set, but ${partner} is. Set both ${a} and ${b}${otherwise}.`,
    })
  }
})

// A copy: process.env is no plain object, which z.record refuses.
const environment = { ...process.env }
const parsed = settings.safeParse(environment)
const problems = [parsed, pairs.safeParse(environment)].flatMap(
  (result) => result.error?.issues ?? [],
)
if (!parsed.success || problems.length > 0) {
  // Every bad variable at once, each on its own line with its first problem: one restart to fix.
  const lines = new Map<PropertyKey, string>()
  for (const { path, message } of problems) if (!lines.has(path[0]!)) lines.set(path[0]!, message)
  throw new Error([...lines.values()].join('\n'))
}

const {
  turnstileSiteKey,
  turnstileSecretKey,
  turnstileVerifyUrl,
  supabaseUrl,
  supabaseAnonKey,
  leadNotifyTo,
  smtpUrl: leadSmtpUrl,
  leadNotifyFrom,
  leadWebhookUrl,
  leadWebhookSecret,
  rdstationApiKey,
  rdstationApiUrl,
  configuredInternalApiSecret,
  nextManualSigHandle,
  ...plain
} = parsed.data

/**
 * INTERNAL_API_SECRET, or one made when this process starts. Kept on globalThis: Next bundles
 * proxy.ts and the routes separately, each with its own copy of this module, and all of them must
 * agree within one server.
 */
function internalApiSecret(): string {
  const store = globalThis as Record<symbol, string | undefined>
  const key = Symbol.for('vigia.internalApiSecret')
  store[key] = configuredInternalApiSecret ?? store[key] ?? randomBytes(32).toString('base64url')
  return store[key]
}

export const serverEnv = {
  ...plain,
  /** Cloudflare Turnstile on the demo form; unset, the form works as before. */
  turnstile:
    turnstileSiteKey && turnstileSecretKey
      ? { siteKey: turnstileSiteKey, secretKey: turnstileSecretKey, verifyUrl: turnstileVerifyUrl }
      : undefined,
  /** The Supabase project demo requests go to; unset, they go to the embedded PGlite store. */
  supabase:
    supabaseUrl && supabaseAnonKey ? { url: supabaseUrl, anonKey: supabaseAnonKey } : undefined,
  /**
   * Where each lead goes besides the two tables (lib/leads/delivery, docs/leads.md): e-mail,
   * signed webhook and RD Station, each optional. None set: nothing is sent.
   */
  leadDelivery: {
    email:
      leadNotifyTo && leadSmtpUrl
        ? { to: leadNotifyTo, smtpUrl: leadSmtpUrl, from: leadNotifyFrom }
        : undefined,
    webhook:
      leadWebhookUrl && leadWebhookSecret
        ? { url: leadWebhookUrl, secret: leadWebhookSecret }
        : undefined,
    rdstation: rdstationApiKey ? { apiKey: rdstationApiKey, apiUrl: rdstationApiUrl } : undefined,
  },
  /**
   * Sent by the server to itself (proxy.ts reading /api/redirects, the webhook's warm-up) in
   * X-Internal-Secret; any other request for an internal route is answered 404. Each instance
   * only ever calls its own origin, so one made at start per process works with no setting.
   */
  internalApiSecret: internalApiSecret(),
  /**
   * Next leaves SIGTERM and SIGINT to the app (Next's own variable): the visit counter then writes
   * its buffer and exits (lib/analytics, docs/analytics.md).
   */
  manualSignalHandling: nextManualSigHandle !== undefined,
}

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
/** A value `valid` accepts; `problem` says what is wrong with any other. */
const where =
  (valid: (value: string) => boolean, problem: (name: string, value: unknown) => string) =>
  (name: string) =>
    z.string().refine(valid, { error: (iss) => problem(name, iss.input) })

/** A URL whose scheme `protocol` matches; `problem` says what is wrong with any other value. */
const urlOf =
  (protocol: RegExp, problem: (name: string, value: unknown) => string): Check<string> =>
  (name) =>
    z.url({ protocol, error: (iss) => problem(name, iss.input) })
const trimmed =
  (check: Check<string>): Check<string> =>
  (name) =>
    check(name).transform((url) => url.replace(/\/+$/, ''))
const httpUrl = trimmed(urlOf(/^https?$/, (n, v) => `${n}="${v}" is not an http(s) URL.`))
const redisUrl = urlOf(/^rediss?$/, (n, v) => `${n}="${v}" is not a redis:// or rediss:// URL.`)
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
const httpsUrl = trimmed((name) =>
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
    where(
      (value) => z.coerce.number().int().min(min).max(max).safeParse(value).success,
      (name, value) => `${name}="${value}" must be a whole number from ${min} to ${max}.`,
    )(name).transform(Number)
// The rate limits: per visitor (or contact), and per instance for everyone together.
const perVisitor = integer(1, 1000)
const perInstance = integer(1, 100_000)
const perBeacons = integer(1, 10_000_000)
const healthToken = secret(32, ' Make one with: openssl rand -hex 32')
const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'

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
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/

const countryCodes = list(
  /^[A-Z]{2}$/,
  (name, value) =>
    `${name}="${value}" must be two-letter country codes separated by commas (BR,PT).`,
  { clean: (code) => code.toUpperCase() },
)
const hostNames = list(
  HOST_NAME,
  (name, _, bad) => `${name}: "${bad}" is not a host name such as www.example.com.br.`,
  { clean: (host) => host.toLowerCase(), min: 0 },
)
const emailAddresses = list(
  EMAIL_ADDRESS,
  (name, value, bad) => `${name} must be e-mail addresses separated by commas ("${bad ?? value}").`,
)
const emailSender = where(
  (from) => EMAIL_ADDRESS.test(from.replace(/^.*<(.*)>$/, '$1')),
  (name, value) => `${name}="${value}" is not an e-mail address.`,
)
const webhookSecret = where(
  (value) => /^whsec_[A-Za-z0-9+/]{22,}={0,2}$/.test(value),
  (name) =>
    `${name} must be whsec_ and at least 16 random bytes in base64 (Standard Webhooks): ` +
    'echo whsec_$(openssl rand -base64 32)',
)
const notSecretKey = where(
  (key) => !isSecretSupabaseKey(key),
  (name) =>
    `${name} holds a secret (service_role) key, which bypasses the row-level security ` +
    'that keeps leads unreadable. Use the project’s anon (publishable) key.',
)

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

// What each variable is for, its default and where it is used: docs/environment.md, whose table
// tests/unit/env-docs.test.ts holds to the names read here.
const settings = settingsOf({
  siteUrl: read('NEXT_PUBLIC_SITE_URL', httpUrl, 'http://localhost:3000'),
  trustedProxyHops: read('TRUSTED_PROXY_HOPS', integer(0, 10), 1),
  demoRateLimitPerMinute: read('DEMO_RATE_LIMIT_PER_MINUTE', perVisitor, 5),
  demoRateLimitPerContactPerHour: read('DEMO_RATE_LIMIT_PER_CONTACT_PER_HOUR', perVisitor, 3),
  demoRateLimitGlobalPerMinute: read('DEMO_RATE_LIMIT_GLOBAL_PER_MINUTE', perInstance, 60),
  reviewRateLimitPerMinute: read('REVIEW_RATE_LIMIT_PER_MINUTE', perVisitor, 10),
  reviewRateLimitGlobalPerMinute: read('REVIEW_RATE_LIMIT_GLOBAL_PER_MINUTE', perInstance, 60),
  calculatorRateLimitPerMinute: read('CALCULATOR_RATE_LIMIT_PER_MINUTE', perVisitor, 30),
  calculatorRateLimitGlobalPerMinute: read(
    'CALCULATOR_RATE_LIMIT_GLOBAL_PER_MINUTE',
    perInstance,
    600,
  ),
  leadPhoneCountries: read('LEAD_PHONE_COUNTRIES', countryCodes, ['BR']),
  formSigningSecret: read('FORM_SIGNING_SECRET', text),
  turnstileSiteKey: read('TURNSTILE_SITE_KEY', text),
  turnstileSecretKey: read('TURNSTILE_SECRET_KEY', text),
  turnstileVerifyUrl: read('TURNSTILE_VERIFY_URL', httpUrl, TURNSTILE_VERIFY_URL),
  redirectAllowedHosts: read('REDIRECT_ALLOWED_HOSTS', hostNames, []),
  supabaseUrl: read('SUPABASE_URL', httpUrl),
  supabaseAnonKey: read('SUPABASE_ANON_KEY', notSecretKey),
  supabaseTimeoutMs: read('SUPABASE_TIMEOUT_MS', integer(100, 60_000), 8000),
  leadsDataDir: read('LEADS_DATA_DIR', text, '.data/leads'),
  leadNotifyTo: read('LEAD_NOTIFY_TO', emailAddresses),
  smtpUrl: read('SMTP_URL', smtpUrl),
  leadNotifyFrom: read('LEAD_NOTIFY_FROM', emailSender),
  leadWebhookUrl: read('LEAD_WEBHOOK_URL', httpsUrl),
  leadWebhookSecret: read('LEAD_WEBHOOK_SECRET', webhookSecret),
  rdstationApiKey: read('RDSTATION_API_KEY', text),
  // Checked even without the key, so a bad value is named at start, not once the key is added.
  rdstationApiUrl: read('RDSTATION_API_URL', httpsUrl, 'https://api.rd.services'),
  leadDeliveryDatabaseUrl: read('LEAD_DELIVERY_DATABASE_URL', postgresUrl),
  sanityApiHost: read('SANITY_API_HOST', httpUrl),
  sanityImageHost: read('SANITY_IMAGE_HOST', httpUrl),
  sanityRevalidateSecret: read('SANITY_REVALIDATE_SECRET', text),
  webhookConsistencyDelayMs: read('SANITY_WEBHOOK_CONSISTENCY_DELAY_MS', integer(0, 10_000), 3000),
  sanityApiReadToken: read('SANITY_API_READ_TOKEN', text),
  redisUrl: read('REDIS_URL', redisUrl),
  cdnPurgeUrl: read('CDN_PURGE_URL', httpUrl),
  cdnPurgeToken: read('CDN_PURGE_TOKEN', text),
  healthDetailsToken: read('HEALTH_DETAILS_TOKEN', healthToken),
  configuredInternalApiSecret: read('INTERNAL_API_SECRET', secret()),
  analyticsReadToken: read('ANALYTICS_READ_TOKEN', secret()),
  analyticsDatabaseUrl: read('ANALYTICS_DATABASE_URL', postgresUrl),
  analyticsFlushIntervalMs: read('ANALYTICS_FLUSH_INTERVAL_MS', integer(100, 10_000), 10_000),
  analyticsRateLimitPerMinute: read('ANALYTICS_RATE_LIMIT_PER_MINUTE', perInstance, 120),
  analyticsRateLimitGlobalPerMinute: read(
    'ANALYTICS_RATE_LIMIT_GLOBAL_PER_MINUTE',
    perBeacons,
    120_000,
  ),
  nextManualSigHandle: read('NEXT_MANUAL_SIG_HANDLE', text),
})

/**
 * Settings that come in twos: both set, or neither. A schema of its own so that it runs even when
 * a value above is bad (an object's own checks wait for its fields).
 */
const PAIRS = [
  [
    'TURNSTILE_SITE_KEY',
    'TURNSTILE_SECRET_KEY',
    ' to check demo requests with Cloudflare Turnstile',
  ],
  ['SUPABASE_URL', 'SUPABASE_ANON_KEY', ' to store demo requests in Supabase'],
  ['LEAD_NOTIFY_TO', 'SMTP_URL', ''],
  ['LEAD_WEBHOOK_URL', 'LEAD_WEBHOOK_SECRET', ''],
] as const
const pairs = z.record(z.string(), z.string().optional()).check((ctx) => {
  for (const [a, b, purpose] of PAIRS) {
    const [hasA, hasB] = [a, b].map((name) => setValue(ctx.value[name]) !== undefined)
    if (hasA === hasB) continue
    const [missing, partner] = hasA ? [b, a] : [a, b]
    // Without Supabase, demo requests still go somewhere: say where.
    const neither = a === 'SUPABASE_URL' ? 'neither to use the embedded store' : 'neither'
    ctx.issues.push({
      code: 'custom',
      input: ctx.value[missing],
      path: [missing],
      message: `${missing} is not set, but ${partner} is. Set both ${a} and ${b}${purpose}, or ${neither}.`,
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
  turnstileSiteKey: siteKey,
  turnstileSecretKey: secretKey,
  turnstileVerifyUrl: verifyUrl,
  supabaseUrl: url,
  supabaseAnonKey: anonKey,
  leadNotifyTo: to,
  smtpUrl: leadSmtpUrl,
  leadNotifyFrom: from,
  leadWebhookUrl,
  leadWebhookSecret,
  rdstationApiKey: apiKey,
  rdstationApiUrl: apiUrl,
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
  // Each group is set or undefined; what each is for: docs/environment.md.
  turnstile: siteKey && secretKey ? { siteKey, secretKey, verifyUrl } : undefined,
  supabase: url && anonKey ? { url, anonKey } : undefined,
  leadDelivery: {
    email: to && leadSmtpUrl ? { to, smtpUrl: leadSmtpUrl, from } : undefined,
    webhook:
      leadWebhookUrl && leadWebhookSecret
        ? { url: leadWebhookUrl, secret: leadWebhookSecret }
        : undefined,
    rdstation: apiKey ? { apiKey, apiUrl } : undefined,
  },
  /** Sent by the server to itself (X-Internal-Secret): one made per process works unset. */
  internalApiSecret: internalApiSecret(),
  /** Next leaves SIGTERM and SIGINT to the app, whose visit counter writes its buffer first. */
  manualSignalHandling: nextManualSigHandle !== undefined,
}

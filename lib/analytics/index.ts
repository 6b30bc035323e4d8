import 'server-only'

import { serverEnv } from '@/lib/env'
import { liveExperiments } from '@/lib/experiments/live'
import { experimentSummaries, judgeVariants } from '@/lib/experiments/report'
import { documentPagePaths } from '@/lib/known-paths'
import { getLeadStore } from '@/lib/leads'
import { refreshing } from '@/lib/refreshing'
import type { Database } from '@/lib/leads/db.mjs'
import { apiVersion, projectId } from '@/sanity/env'

import { createReaderAuth } from './auth'
import {
  createCollector,
  createVariantCredit,
  EMBEDDED_BATCH_VISITORS,
  MAX_BATCH_VISITORS,
  namedValuesCache,
  type BeaconBody,
  type Collector,
  type RecordResult,
} from './collect'
import type { Report, ReportQuery } from './report-schema'
import {
  nameCampaign as nameCampaignIn,
  namedCampaigns as namedCampaignsIn,
  purgeAggregates,
  readReport as readReportFrom,
  writeBatch,
} from './store'
import { sharedState } from './visitor'

// The one backend module of the visit counts (docs/analytics.md). Routes call these named
// functions: recordView (the beacon), readReport (the figures), checkReader (who may read them).

/** Routes the site serves that are not documents (documents: lib/known-paths.ts). */
export const FIXED_PATHS = ['/', '/calculadora', '/conteudos'] as const
const KNOWN_PATHS_TTL_MS = 60_000

type State = {
  config: string
  collector: Collector
  names: ReturnType<typeof namedValuesCache>
  database: () => Promise<Database>
  ready: Promise<void>
  timer: ReturnType<typeof setInterval>
  saltFor: (day: string) => Promise<Buffer>
}

// On globalThis: Next bundles instrumentation.ts and each route apart, and they must share one
// buffer (and one timer) per process.
const globalForAnalytics = globalThis as typeof globalThis & {
  __vigiaAnalytics?: State
}

/** A form's variant check (createVariantCredit), over the shared state. */
let formCredit: { shared: unknown; credit: ReturnType<typeof createVariantCredit> } | undefined

// A stale list answers at once; only the very first view waits for one.
const knownPaths = refreshing(documentPagePaths, { ttlMs: KNOWN_PATHS_TTL_MS, stale: 'serve' })

async function isKnownPath(path: string): Promise<boolean> {
  if ((FIXED_PATHS as readonly string[]).includes(path)) return true
  return (await knownPaths.get())?.has(path) ?? false
}

/**
 * Where the visits are written, and `ready`: settled once a PGlite store (seconds of CPU) is open,
 * awaited by instrumentation.ts before the first request. PostgreSQL is connected on first use.
 */
function openDatabase(): { database: () => Promise<Database>; ready: Promise<void> } {
  const url = serverEnv.analyticsDatabaseUrl
  const store = url ? undefined : getLeadStore()
  if (store?.kind === 'embedded' && 'database' in store) {
    // The lead store's own database, opened by its warmUp (lib/leads), which logs a failure.
    const database = (store as { database: () => Promise<Database> }).database
    return { database, ready: database().then(settled, settled) }
  }
  if (!url)
    console.warn(
      '[analytics] Demo requests go to Supabase but ANALYTICS_DATABASE_URL is not set: visits are ' +
        'counted in the embedded PGlite and no lead is joined to them. Set ANALYTICS_DATABASE_URL ' +
        '(docs/analytics.md, "Production").',
    )
  let pending: Promise<Database> | undefined
  const database = () => {
    pending ??= (async () => {
      // PostgreSQL's migrations are applied with `supabase db push`, as the leads' are.
      if (url) return (await import('@/lib/leads/postgres.mjs')).openPostgres(url)
      const { openPglite, applyMigrations } = await import('@/lib/leads/db.mjs')
      const db = await openPglite(`${serverEnv.leadsDataDir}-analytics`)
      await applyMigrations(db)
      return db
    })()
    pending.catch(() => {
      pending = undefined
    })
    return pending
  }
  if (url) return { database, ready: Promise.resolve() }
  // Said in one line; the next flush tries again.
  const ready = database().then(settled, (error: unknown) =>
    console.error(
      `[analytics] The embedded visit store could not be opened: ${error instanceof Error ? error.message : String(error)}`,
    ),
  )
  return { database, ready }
}

function settled(): void {}

/** The process's counter, made on first use; writes every ANALYTICS_FLUSH_INTERVAL_MS. */
function analytics(): State {
  const config = JSON.stringify([
    serverEnv.analyticsDatabaseUrl,
    serverEnv.leadsDataDir,
    serverEnv.redisUrl,
    serverEnv.supabase?.url,
  ])
  const existing = globalForAnalytics.__vigiaAnalytics
  if (existing?.config === config) return existing
  if (existing) clearInterval(existing.timer)

  const { database, ready } = openDatabase()
  const shared = sharedState()
  const names = namedValuesCache(async () => namedCampaignsIn(await database()))
  const collector = createCollector({
    site: serverEnv.siteUrl,
    maxBatchVisitors: serverEnv.analyticsDatabaseUrl ? MAX_BATCH_VISITORS : EMBEDDED_BATCH_VISITORS,
    saltFor: shared.saltFor,
    firstSeen: shared.firstSeen,
    reading: shared.reading,
    isKnownPath,
    isNamed: names.isNamed,
    experiments: () => liveExperiments().definitions(),
    holdsShare: shared.holdsShare,
    write: async (batchId, rows, vitals) => writeBatch(await database(), batchId, rows, vitals),
    purge: async () => purgeAggregates(await database()),
  })
  const timer = setInterval(() => void collector.flush(), serverEnv.analyticsFlushIntervalMs)
  timer.unref()
  const state = { config, collector, names, database, ready, timer, saltFor: shared.saltFor }
  globalForAnalytics.__vigiaAnalytics = state
  return state
}

/**
 * Whether a form's variant is credited to its lead: the beacon's rule (collect.ts creditVariant:
 * running, served to this visitor, its address's share). Never throws; false when unsure.
 */
export async function creditVariant(input: {
  ip: string
  userAgent: string | null
  variant: string
}): Promise<boolean> {
  try {
    const shared = sharedState()
    if (formCredit?.shared !== shared)
      formCredit = {
        shared,
        credit: createVariantCredit({
          site: serverEnv.siteUrl,
          saltFor: shared.saltFor,
          experiments: () => liveExperiments().definitions(),
          holdsShare: shared.holdsShare,
        }),
      }
    return await formCredit.credit.creditVariant(input)
  } catch (error) {
    console.error(
      `[analytics] A form's variant could not be checked: ${error instanceof Error ? error.message : error}`,
    )
    return false
  }
}

/** Counts one view from the beacon. Never throws; resolves once the view is buffered. */
export async function recordView(input: {
  ip: string
  userAgent: string | null
  body: BeaconBody
}): Promise<RecordResult | 'failed'> {
  try {
    return await analytics().collector.record(input)
  } catch (error) {
    console.error(
      `[analytics] A view could not be counted: ${error instanceof Error ? error.message : error}`,
    )
    return 'failed'
  }
}

/** Writes what is buffered now (shutdown, tests); resolves even when the database is away. */
export async function flushAnalytics(): Promise<void> {
  await globalForAnalytics.__vigiaAnalytics?.collector.flush()
}

/** What waits in memory for the database. */
export function pendingAnalytics() {
  return globalForAnalytics.__vigiaAnalytics?.collector.pending()
}

/**
 * The figures of one validated query; by=variant adds each row's verdict against its experiment's
 * default, and the experiments themselves (lib/experiments/report.ts).
 */
export async function readReport(query: ReportQuery): Promise<Report> {
  const report = await readReportFrom(await analytics().database(), query)
  if (query.by !== 'variant') return report
  const definitions = await liveExperiments().definitions()
  return {
    ...report,
    rows: judgeVariants(report.rows, definitions),
    experiments: experimentSummaries(definitions),
  }
}

/** Names a campaign so that it is always counted under its own name (the Studio's builder). */
export async function nameCampaign(campaign: string): Promise<boolean> {
  const state = analytics()
  const named = await nameCampaignIn(await state.database(), campaign)
  if (named) state.names.add(campaign)
  return named
}

/** The campaigns named in the Studio. */
export async function namedCampaigns(): Promise<string[]> {
  return namedCampaignsIn(await analytics().database())
}

const readerAuth = createReaderAuth({
  readToken: serverEnv.analyticsReadToken,
  sanityApiBase:
    serverEnv.sanityApiHost ?? (projectId ? `https://${projectId}.api.sanity.io` : undefined),
  apiVersion,
})

/** Whether this Authorization header, from this client address, may read the figures. */
export function checkReader(authorization: string | null, client?: string) {
  return readerAuth.check(authorization, client)
}

/** Whether it may name a campaign: a Studio user whose role can write (lib/analytics/auth.ts). */
export function checkWriter(authorization: string | null, client?: string) {
  return readerAuth.check(authorization, client, 'write')
}

/**
 * Starts the counter (instrumentation.ts) and writes its buffer when the server stops. Resolves
 * once a store on this machine is open (never rejects): see openDatabase.
 */
export function startAnalytics(): Promise<void> {
  const { ready } = analytics()
  const key = Symbol.for('vigia.analytics.shutdown')
  const store = globalThis as Record<symbol, boolean | undefined>
  if (store[key]) return ready
  store[key] = true
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      // Next closes the server on the same signal; the write usually takes milliseconds. With
      // NEXT_MANUAL_SIG_HANDLE set, Next leaves the signal to us and we exit once written.
      void flushAnalytics().finally(() => {
        if (serverEnv.manualSignalHandling) process.exit(0)
      })
    })
  }
  return ready
}

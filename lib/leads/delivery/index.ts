import 'server-only'

import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'

import { serverEnv } from '@/lib/env'
import { getLeadStore } from '@/lib/leads'
import type { Database } from '@/lib/leads/db.mjs'
import { outsideRequest } from '@/lib/outside-request'

import { DESTINATIONS, type Destination, type DestinationSpec, type Sender } from './destinations'
import { deliveredFromRow, type DeliveredLead } from './lead'
import {
  ATTEMPT_DEADLINE_MS,
  claimDue,
  LEASE_SECONDS,
  deliveryStats,
  enableDestinations,
  purgeExpired,
  recordAttempt,
  reportCourier,
  type Claimed,
  type DestinationStats,
} from './queue.mjs'
import { nextStep, RETRY_FOR_MS, type AttemptResult } from './retry'

// The one module that sends each lead to the destinations configured (issues 46 and 49,
// docs/leads.md), those ./destinations.ts declares. The database queues a delivery per lead
// and enabled destination when the lead is stored (a trigger, supabase/migrations/*_lead_delivery*.sql);
// every instance polls the queue, claims due deliveries with SKIP LOCKED and a lease, sends each
// within a deadline well under the lease, and records each attempt. An instance only ever switches
// destinations on (its own settings) and reports which it sends to, so that one without settings
// changes nothing for the others and a lead nobody can send shows in /api/health.
// The visitor's request never waits for any of it.

/** How often an instance that sends looks for due deliveries. */
const POLL_MS = 2000
/** How often one that sends nothing reports itself and reads the queue's health. */
const IDLE_POLL_MS = 10_000
/** Deliveries claimed per round; a full round is followed by another at once. */
const BATCH = 10
/** Old delivery rows are purged this often (queue.mjs, purgeExpired). */
const PURGE_EVERY_MS = 60 * 60_000
/** A record that fails is tried again after these waits, inside the lease. */
const RECORD_RETRY_MS = [500, 2000]

type Step = Parameters<typeof recordAttempt>[2]

export type DeliveryHealth = {
  ok: boolean
  destinations: Destination[]
  pending: number
  failed: number
  oldestPendingSeconds: number | null
  byDestination?: DestinationStats[]
  problem?: string
}

type State = {
  config: string
  instance: string
  senders: Partial<Record<Destination, Sender>>
  database?: () => Promise<Database>
  timer?: ReturnType<typeof setInterval>
  running: boolean
  again: boolean
  enabled: boolean
  purgedAt: number
  /** Sent, but the record failed: recorded at the next round, never sent again from here. */
  unrecorded: Map<number, { claimed: Claimed; step: Step }>
  stats?: DestinationStats[]
  problem?: string
  unsentLogged?: string
}

const globalForDelivery = globalThis as typeof globalThis & { __vigiaLeadDelivery?: State }

function senders(): Partial<Record<Destination, Sender>> {
  return Object.fromEntries(
    Object.entries(DESTINATIONS).flatMap(([name, spec]: [string, DestinationSpec]) => {
      const send = spec.sender(serverEnv)
      return send ? [[name, send]] : []
    }),
  )
}

/** The database the leads are in: the embedded store's, or the server's own Supabase connection. */
function openDatabase(): (() => Promise<Database>) | undefined {
  const store = getLeadStore()
  if (store.kind === 'embedded' && 'database' in store)
    return (store as { database: () => Promise<Database> }).database
  const url = serverEnv.leadDeliveryDatabaseUrl
  if (!url) return undefined
  let pending: Promise<Database> | undefined
  return () => {
    pending ??= import('@/lib/leads/postgres.mjs').then(({ openPostgres }) => openPostgres(url))
    pending.catch(() => {
      pending = undefined
    })
    return pending
  }
}

function state(): State {
  const config = JSON.stringify([
    serverEnv.leadDelivery,
    serverEnv.leadDeliveryDatabaseUrl,
    serverEnv.supabase?.url,
    serverEnv.leadsDataDir,
  ])
  const existing = globalForDelivery.__vigiaLeadDelivery
  if (existing?.config === config) return existing
  if (existing?.timer) clearInterval(existing.timer)
  const made: State = {
    config,
    instance: `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`.slice(-100),
    senders: senders(),
    database: openDatabase(),
    running: false,
    again: false,
    enabled: false,
    purgedAt: 0,
    unrecorded: new Map(),
  }
  globalForDelivery.__vigiaLeadDelivery = made
  return made
}

function configured(s: State): Destination[] {
  return (Object.keys(s.senders) as Destination[]).sort()
}

/** Runs one attempt, bounded by ATTEMPT_DEADLINE_MS whatever the sender does with its signal. */
async function attempt(send: Sender, lead: DeliveredLead): Promise<AttemptResult> {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<AttemptResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException('The attempt timed out.', 'TimeoutError'))
      resolve({ kind: 'retry', reason: 'timeout' })
    }, ATTEMPT_DEADLINE_MS)
  })
  try {
    return await Promise.race([
      send(lead, controller.signal).catch((error: unknown): AttemptResult => ({
        kind: 'retry',
        reason: error instanceof Error ? error.name : 'unexpected',
      })),
      deadline,
    ])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Records an outcome, trying again twice inside the lease: a delivered lead whose record failed
 * would otherwise be sent again when its lease passes. Still failing, a delivered outcome is kept
 * in memory and recorded at the next round (`unrecorded`). Returns whether the row was ours.
 */
async function record(s: State, db: Database, claimed: Claimed, step: Step): Promise<boolean> {
  for (let i = 0; ; i++) {
    try {
      const ours = await recordAttempt(db, claimed, step)
      s.unrecorded.delete(claimed.id)
      if (!ours) logLostLease(claimed, step)
      return ours
    } catch (error) {
      if (i < RECORD_RETRY_MS.length) {
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS[i]))
        continue
      }
      if (step.kind === 'delivered' && !s.unrecorded.has(claimed.id)) {
        s.unrecorded.set(claimed.id, { claimed, step })
        console.error(
          `[leads] ${subject(claimed)} was delivered to ${claimed.destination}, but that could ` +
            `not be recorded (${error instanceof Error ? error.message : String(error)}); tried again ` +
            'at the next round. If this instance stops first, the receiver may see the lead twice.',
        )
      }
      throw error
    }
  }
}

/** How the log names a delivery's subject: its id only, never the visitor's data. */
function subject(claimed: Claimed): string {
  return claimed.kind === 'material' ? `Material conversion ${claimed.uid}` : `Lead ${claimed.uid}`
}

function logLostLease(claimed: Claimed, step: Step): void {
  console.warn(
    `[leads] ${subject(claimed)}: attempt ${claimed.attempts} to ${claimed.destination} ended ` +
      `(${step.kind}) after its ${LEASE_SECONDS} s lease had passed; not recorded (the database ` +
      'refuses it), the next claim sends it again. The receiver may see the lead twice ' +
      '(docs/leads.md, "Nothing lost, at most twice").',
  )
}

async function deliver(s: State, db: Database, claimed: Claimed): Promise<void> {
  const destination = claimed.destination as Destination
  const send = s.senders[destination]
  if (!send) return
  // Delivered by this instance already, only its record failed: record it, do not send again.
  const known = s.unrecorded.get(claimed.id)
  if (known) {
    s.unrecorded.delete(claimed.id)
    await record(s, db, claimed, known.step)
    return
  }
  const lead = deliveredFromRow(claimed.kind, claimed.lead, claimed.uid)
  const result = await attempt(send, lead)
  const step = nextStep(result, claimed.attempts, claimed.createdAt)
  const ours = await record(s, db, claimed, step)
  if (!ours) return
  // The lead's id only: never the visitor's data, nor a URL (RD Station's holds its key).
  if (step.kind === 'delivered') {
    console.info(
      `[leads] ${subject(claimed)} delivered to ${destination} (attempt ${claimed.attempts}).`,
    )
  } else if (step.kind === 'failed') {
    console.error(
      step.gaveUp
        ? `[leads] ${subject(claimed)} NOT delivered to ${destination}: still failing after ` +
            `${RETRY_FOR_MS / 3_600_000} h and ${claimed.attempts} attempts (last: ${step.reason}). ` +
            'Given up; docs/leads.md, "A stuck delivery".'
        : `[leads] ${subject(claimed)} NOT delivered to ${destination}: refused with ` +
            `${step.reason}, not tried again. Check its settings; docs/leads.md, "A stuck delivery".`,
    )
  } else {
    console.warn(
      `[leads] ${subject(claimed)} not delivered to ${destination} yet (${step.reason}); ` +
        `attempt ${claimed.attempts + 1} in ${Math.round((step.at - Date.now()) / 1000)} s.`,
    )
  }
}

/** Destinations with leads waiting that no running instance sends to, as one sentence. */
function unsentProblem(stats: DestinationStats[] | undefined): string | undefined {
  const unsent = (stats ?? []).filter((row) => row.pending > 0 && !row.sent)
  if (unsent.length === 0) return undefined
  return (
    unsent.map((row) => `${row.pending} lead(s) wait for ${row.destination}`).join(', ') +
    ', which no running instance sends to: set its variables on an instance, or switch it off ' +
    `with npm run leads -- --disable ${unsent.map((row) => row.destination).join(' / ')}`
  )
}

async function round(s: State): Promise<void> {
  if (!s.database) return
  const names = configured(s)
  const db = await s.database()
  await reportCourier(db, s.instance, names)
  if (!s.enabled) {
    await enableDestinations(db, names)
    s.enabled = true
  }
  if (names.length > 0) {
    for (;;) {
      const claimed = await claimDue(db, names, BATCH)
      await Promise.all(claimed.map((one) => deliver(s, db, one)))
      if (claimed.length < BATCH) break
    }
  }
  // Sent but not recorded, and not claimed again above (deliver records those without sending).
  for (const { claimed, step } of [...s.unrecorded.values()]) await record(s, db, claimed, step)
  if (Date.now() - s.purgedAt >= PURGE_EVERY_MS) {
    const purged = await purgeExpired(db)
    s.purgedAt = Date.now()
    if (purged > 0)
      console.info(`[leads] Purged ${purged} delivery row(s) past the leads' retention.`)
  }
  s.stats = await deliveryStats(db)
  const unsent = unsentProblem(s.stats)
  if (unsent && unsent !== s.unsentLogged) console.error(`[leads] ${unsent}.`)
  s.unsentLogged = unsent
}

async function tick(s: State): Promise<void> {
  if (s.running) {
    s.again = true
    return
  }
  s.running = true
  try {
    do {
      s.again = false
      await round(s)
      if (s.problem) console.info('[leads] The lead delivery queue can be read again.')
      s.problem = undefined
    } while (s.again)
  } catch (error) {
    const problem = `the delivery queue could not be read: ${error instanceof Error ? error.message : String(error)}`
    if (problem !== s.problem) console.error(`[leads] ${problem}`)
    s.problem = problem
  } finally {
    s.running = false
  }
}

/**
 * Starts this instance's deliveries (instrumentation.ts). With no destination configured it sends
 * nothing and switches nothing off; it still reports itself and reads the queue's health.
 */
export function startLeadDelivery(): void {
  const s = state()
  if (s.timer || !s.database) {
    if (!s.database && configured(s).length > 0) {
      s.problem =
        'leads go to Supabase but LEAD_DELIVERY_DATABASE_URL (the courier login) is not set: nothing is delivered'
      console.error(`[leads] ${s.problem} (docs/leads.md).`)
    }
    return
  }
  const names = configured(s)
  console.info(
    names.length > 0
      ? `[leads] Each lead is also sent to: ${names.join(', ')}.`
      : `[leads] No lead destination configured (${Object.keys(DESTINATIONS).join(', ')}) on this instance: it sends none, and changes nothing for the others.`,
  )
  outsideRequest(() => {
    void tick(s)
    s.timer = setInterval(() => void tick(s), names.length > 0 ? POLL_MS : IDLE_POLL_MS)
    s.timer.unref()
  })
}

/** A lead was just stored: look at the queue now rather than at the next poll. Never waits. */
export function nudgeLeadDelivery(): void {
  const s = globalForDelivery.__vigiaLeadDelivery
  if (!s?.timer || configured(s).length === 0) return
  outsideRequest(() => setTimeout(() => void tick(s), 0))
}

/**
 * For /api/health: from memory, as of the last round. Every destination with deliveries counts,
 * not only this instance's: a lead waiting for one that no running instance sends to is not ok.
 */
export function leadDeliveryHealth(): DeliveryHealth | undefined {
  const s = globalForDelivery.__vigiaLeadDelivery
  if (!s) return undefined
  const destinations = configured(s)
  const stats = s.stats ?? []
  const pending = stats.reduce((sum, row) => sum + row.pending, 0)
  const failed = stats.reduce((sum, row) => sum + row.failed, 0)
  const ages = stats.flatMap((row) =>
    row.oldestPendingSeconds === null ? [] : [row.oldestPendingSeconds],
  )
  const oldestPendingSeconds = ages.length > 0 ? Math.max(...ages) : null
  const problem =
    s.problem ??
    unsentProblem(stats) ??
    (failed > 0 ? `${failed} delivery(ies) failed: npm run leads -- --deliveries` : undefined)
  return {
    ok: problem === undefined,
    destinations,
    pending,
    failed,
    oldestPendingSeconds,
    ...(stats.length > 0 ? { byDestination: stats } : {}),
    ...(problem ? { problem } : {}),
  }
}

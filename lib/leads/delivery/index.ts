import 'server-only'

import { serverEnv } from '@/lib/env'
import { getLeadStore } from '@/lib/leads'
import type { Database } from '@/lib/leads/db.mjs'
import { outsideRequest } from '@/lib/outside-request'

import { senderFor, sendLeadEmail } from './email'
import { leadFromRow, type DeliveredLead } from './lead'
import {
  claimDue,
  deliveryStats,
  recordAttempt,
  syncDestinations,
  type Claimed,
  type DestinationStats,
} from './queue.mjs'
import { sendLeadConversion } from './rdstation'
import { nextStep, RETRY_FOR_MS, type AttemptResult } from './retry'
import { sendLeadWebhook } from './webhook'

// The one module that sends each lead to the destinations configured (issue 46, docs/leads.md):
// e-mail, a signed webhook, RD Station. The database queues a delivery per lead and destination
// when the lead is stored (a trigger, supabase/migrations/*_lead_delivery.sql); every instance
// polls the queue, claims due deliveries with SKIP LOCKED and a lease, and records each attempt.
// The visitor's request never waits for any of it.

/** How often an instance looks for due deliveries. */
const POLL_MS = 2000
/** Deliveries claimed per round; a full round is followed by another at once. */
const BATCH = 10

type Destination = 'email' | 'webhook' | 'rdstation'
type Sender = (lead: DeliveredLead) => Promise<AttemptResult>

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
  senders: Partial<Record<Destination, Sender>>
  database?: () => Promise<Database>
  timer?: ReturnType<typeof setInterval>
  running: boolean
  again: boolean
  synced: boolean
  stats?: DestinationStats[]
  problem?: string
}

const globalForDelivery = globalThis as typeof globalThis & { __vigiaLeadDelivery?: State }

function senders(): Partial<Record<Destination, Sender>> {
  const { email, webhook, rdstation } = serverEnv.leadDelivery
  return {
    ...(email
      ? {
          email: (lead: DeliveredLead) =>
            sendLeadEmail(lead, {
              smtpUrl: email.smtpUrl,
              to: email.to,
              from: senderFor(email.smtpUrl, serverEnv.siteUrl, email.from),
            }),
        }
      : {}),
    ...(webhook ? { webhook: (lead: DeliveredLead) => sendLeadWebhook(lead, webhook) } : {}),
    ...(rdstation
      ? { rdstation: (lead: DeliveredLead) => sendLeadConversion(lead, rdstation) }
      : {}),
  }
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
    senders: senders(),
    database: openDatabase(),
    running: false,
    again: false,
    synced: false,
  }
  globalForDelivery.__vigiaLeadDelivery = made
  return made
}

function configured(s: State): Destination[] {
  return (Object.keys(s.senders) as Destination[]).sort()
}

async function deliver(s: State, db: Database, claimed: Claimed): Promise<void> {
  const destination = claimed.destination as Destination
  const send = s.senders[destination]
  if (!send) return
  const lead = leadFromRow(claimed.lead, claimed.leadUid)
  let result: AttemptResult
  try {
    result = await send(lead)
  } catch (error) {
    result = { kind: 'retry', reason: error instanceof Error ? error.name : 'unexpected' }
  }
  const step = nextStep(result, claimed.attempts, claimed.createdAt)
  const ours = await recordAttempt(db, claimed, step)
  if (!ours) return
  // The lead's id only: never the visitor's data, nor a URL (RD Station's holds its key).
  if (step.kind === 'delivered') {
    console.info(
      `[leads] Lead ${claimed.leadUid} delivered to ${destination} (attempt ${claimed.attempts}).`,
    )
  } else if (step.kind === 'failed') {
    console.error(
      step.gaveUp
        ? `[leads] Lead ${claimed.leadUid} NOT delivered to ${destination}: still failing after ` +
            `${RETRY_FOR_MS / 3_600_000} h and ${claimed.attempts} attempts (last: ${step.reason}). ` +
            'Given up; docs/leads.md, "A stuck delivery".'
        : `[leads] Lead ${claimed.leadUid} NOT delivered to ${destination}: refused with ` +
            `${step.reason}, not tried again. Check its settings; docs/leads.md, "A stuck delivery".`,
    )
  } else {
    console.warn(
      `[leads] Lead ${claimed.leadUid} not delivered to ${destination} yet (${step.reason}); ` +
        `attempt ${claimed.attempts + 1} in ${Math.round((step.at - Date.now()) / 1000)} s.`,
    )
  }
}

async function round(s: State): Promise<void> {
  if (!s.database) return
  const names = configured(s)
  const db = await s.database()
  if (!s.synced) {
    await syncDestinations(db, names)
    s.synced = true
  }
  if (names.length > 0) {
    for (;;) {
      const claimed = await claimDue(db, names, BATCH)
      await Promise.all(claimed.map((one) => deliver(s, db, one)))
      if (claimed.length < BATCH) break
    }
  }
  s.stats = await deliveryStats(db)
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
 * Starts this instance's deliveries (instrumentation.ts). With no destination configured it
 * only records that in the database, so that no lead is queued.
 */
export function startLeadDelivery(): void {
  const s = state()
  if (s.timer || !s.database) {
    if (!s.database && configured(s).length > 0) {
      s.problem =
        'leads go to Supabase but neither LEAD_DELIVERY_DATABASE_URL nor ANALYTICS_DATABASE_URL is set: nothing is delivered'
      console.error(`[leads] ${s.problem} (docs/leads.md).`)
    }
    return
  }
  const names = configured(s)
  console.info(
    names.length > 0
      ? `[leads] Each lead is also sent to: ${names.join(', ')}.`
      : '[leads] No lead destination configured (e-mail, webhook, RD Station): leads stay in the tables only.',
  )
  outsideRequest(() => {
    void tick(s)
    if (names.length > 0) {
      s.timer = setInterval(() => void tick(s), POLL_MS)
      s.timer.unref()
    }
  })
}

/** A lead was just stored: look at the queue now rather than at the next poll. Never waits. */
export function nudgeLeadDelivery(): void {
  const s = globalForDelivery.__vigiaLeadDelivery
  if (!s?.timer) return
  outsideRequest(() => setTimeout(() => void tick(s), 0))
}

/** For /api/health: from memory, as of the last round (every POLL_MS). */
export function leadDeliveryHealth(): DeliveryHealth | undefined {
  const s = globalForDelivery.__vigiaLeadDelivery
  if (!s) return undefined
  const destinations = configured(s)
  const stats = (s.stats ?? []).filter((row) =>
    (destinations as string[]).includes(row.destination),
  )
  const pending = stats.reduce((sum, row) => sum + row.pending, 0)
  const failed = stats.reduce((sum, row) => sum + row.failed, 0)
  const ages = stats.flatMap((row) =>
    row.oldestPendingSeconds === null ? [] : [row.oldestPendingSeconds],
  )
  const oldestPendingSeconds = ages.length > 0 ? Math.max(...ages) : null
  const problem =
    s.problem ??
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

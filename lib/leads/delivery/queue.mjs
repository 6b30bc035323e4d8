// The lead deliveries the database queues (supabase/migrations/*_lead_delivery.sql), read and
// marked as the role lead_courier. Plain JavaScript (typed with JSDoc), shared by the server
// (lib/leads/delivery) and `npm run leads`.

/**
 * @typedef {import('../db.mjs').Database} Database
 * @typedef {import('../db.mjs').Queryable} Queryable
 * @typedef {{ id: number, leadUid: string, destination: string, lead: Record<string, unknown>, attempts: number, createdAt: number }} Claimed
 * @typedef {{ destination: string, pending: number, failed: number, delivered: number, oldestPendingSeconds: number | null }} DestinationStats
 */

/** The destinations the migration knows. */
export const DESTINATIONS = /** @type {const} */ (['email', 'webhook', 'rdstation'])

/**
 * How long a claimed delivery is this instance's: longer than one attempt (15 s), short enough
 * that a delivery held by an instance that died is taken over within a minute.
 */
export const LEASE_SECONDS = 45

/**
 * @template T
 * @param {Database} db
 * @param {(tx: Queryable) => Promise<T>} fn
 * @param {boolean} [asRole] false: as whoever connected (`npm run leads` reads as the owner)
 * @returns {Promise<T>}
 */
function asCourier(db, fn, asRole = true) {
  return db.transaction(async (tx) => {
    if (asRole) await tx.exec('set local role lead_courier')
    return fn(tx)
  })
}

/**
 * Records which destinations this server sends to: leads stored from now on are queued for
 * those, and no longer for the others.
 * @param {Database} db
 * @param {readonly string[]} enabled
 */
export async function syncDestinations(db, enabled) {
  await asCourier(db, async (tx) => {
    for (const name of DESTINATIONS) {
      await tx.query(
        `insert into lead_delivery.destinations as d (name, enabled) values ($1, $2)
         on conflict (name) do update set enabled = excluded.enabled,
           changed_at = case when d.enabled = excluded.enabled then d.changed_at else now() end`,
        [name, enabled.includes(name)],
      )
    }
  })
}

/**
 * Takes up to `limit` due deliveries of `destinations` for this instance: rows another instance
 * is taking at this moment are skipped (SKIP LOCKED), rows it holds are leased.
 * @param {Database} db
 * @param {readonly string[]} destinations
 * @param {number} limit
 * @returns {Promise<Claimed[]>}
 */
export async function claimDue(db, destinations, limit) {
  const result = await asCourier(db, (tx) =>
    tx.query(
      `with due as (
         select id from lead_delivery.deliveries
         where status = 'pending' and destination = any($1::text[])
           and next_attempt_at <= now()
           and (leased_until is null or leased_until < now())
         order by next_attempt_at
         limit $2
         for update skip locked
       )
       update lead_delivery.deliveries d
       set leased_until = now() + make_interval(secs => $3), attempts = d.attempts + 1
       from due where d.id = due.id
       returning d.id, d.lead_uid, d.destination, d.lead, d.attempts, d.created_at`,
      [destinations, limit, LEASE_SECONDS],
    ),
  )
  return result.rows.map((row) => ({
    id: Number(row.id),
    leadUid: String(row.lead_uid),
    destination: String(row.destination),
    lead: /** @type {Record<string, unknown>} */ (
      typeof row.lead === 'string' ? JSON.parse(row.lead) : (row.lead ?? {})
    ),
    attempts: Number(row.attempts),
    createdAt: new Date(/** @type {string} */ (row.created_at)).getTime(),
  }))
}

/**
 * Records an attempt's outcome, only while this instance's claim holds (same attempt count):
 * a late answer after the lease passed to another instance changes nothing.
 * @param {Database} db
 * @param {Claimed} claimed
 * @param {{ kind: 'delivered' } | { kind: 'retry', at: number, reason: string } | { kind: 'failed', reason: string }} step
 * @returns {Promise<boolean>} whether the row was still ours
 */
export async function recordAttempt(db, claimed, step) {
  const sql =
    step.kind === 'delivered'
      ? `update lead_delivery.deliveries set status = 'delivered', delivered_at = now(),
           leased_until = null, last_error = null, lead = null
         where id = $1 and attempts = $2 and status = 'pending'`
      : step.kind === 'retry'
        ? `update lead_delivery.deliveries set next_attempt_at = to_timestamp($3::double precision / 1000),
             leased_until = null, last_error = left($4, 300)
           where id = $1 and attempts = $2 and status = 'pending'`
        : `update lead_delivery.deliveries set status = 'failed', failed_at = now(),
             leased_until = null, last_error = left($3, 300)
           where id = $1 and attempts = $2 and status = 'pending'`
  const params =
    step.kind === 'delivered'
      ? [claimed.id, claimed.attempts]
      : step.kind === 'retry'
        ? [claimed.id, claimed.attempts, step.at, step.reason]
        : [claimed.id, claimed.attempts, step.reason]
  const result = await asCourier(db, (tx) => tx.query(`${sql} returning id`, params))
  return result.rows.length > 0
}

/**
 * Pending, failed and delivered counts and the oldest pending delivery's age, per destination.
 * @param {Database} db
 * @param {{ asRole?: boolean }} [options]
 * @returns {Promise<DestinationStats[]>}
 */
export async function deliveryStats(db, { asRole = true } = {}) {
  const result = await asCourier(
    db,
    (tx) =>
      tx.query(
        `select destination,
         count(*) filter (where status = 'pending') as pending,
         count(*) filter (where status = 'failed') as failed,
         count(*) filter (where status = 'delivered') as delivered,
         extract(epoch from now() - min(created_at) filter (where status = 'pending')) as oldest
       from lead_delivery.deliveries group by destination order by destination`,
      ),
    asRole,
  )
  return result.rows.map((row) => ({
    destination: String(row.destination),
    pending: Number(row.pending),
    failed: Number(row.failed),
    delivered: Number(row.delivered),
    oldestPendingSeconds: row.oldest == null ? null : Math.round(Number(row.oldest)),
  }))
}

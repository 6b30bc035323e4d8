// The lead deliveries the database queues (supabase/migrations/*_lead_delivery.sql), read and
// marked as the role lead_courier, which may write the queue only through the functions of
// supabase/migrations/20270330000000_courier_least_privilege.sql; switching off and re-queueing are
// the operator's (the database owner's, `npm run leads`). Plain JavaScript (typed with JSDoc),
// shared by the server (lib/leads/delivery) and `npm run leads`.

/**
 * @typedef {import('../db.mjs').Database} Database
 * @typedef {import('../db.mjs').Queryable} Queryable
 * @typedef {'demo' | 'material'} DeliveryKind a demo request (dados_cliente) or a material's conversion (conversoes_material)
 * @typedef {{ id: number, kind: DeliveryKind, uid: string, leadUid: string, destination: string, lead: Record<string, unknown>, attempts: number, createdAt: number }} Claimed
 *   `uid` is the lead's or the conversion's stable id; `leadUid` is the same value, under the name
 *   the lead-only code and tests knew it by. `lead` is the queued row (to_jsonb), whichever kind.
 * @typedef {{ destination: string, pending: number, failed: number, delivered: number, oldestPendingSeconds: number | null, sent: boolean }} DestinationStats
 */

/**
 * How long a claimed delivery is this instance's: more than twice one attempt's deadline
 * (ATTEMPT_DEADLINE_MS, 20 s) and its record, short enough that a delivery held by an instance
 * that died is taken over within a minute.
 */
export const LEASE_SECONDS = 45

/** One attempt's overall deadline, sending included, whatever the receiver does. */
export const ATTEMPT_DEADLINE_MS = 20_000

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
 * Switches on the destinations this instance has settings for: leads stored from now on are
 * queued for them. Never switches one off: an instance without settings (a second one mid-rollout,
 * a laptop pointed at production) changes nothing for the others. Off is an operator's decision,
 * disableDestination.
 * @param {Database} db
 * @param {readonly string[]} enabled
 */
export async function enableDestinations(db, enabled) {
  if (enabled.length === 0) return
  await asCourier(db, (tx) =>
    tx.query(`select lead_delivery.enable_destinations($1::text[])`, [enabled]),
  )
}

/**
 * The operator's off switch (`npm run leads -- --disable <name>`): no lead is queued for it from
 * now on, and the deliveries still waiting for it are given up, their copies emptied.
 * @param {Database} db
 * @param {string} name
 * @returns {Promise<number>} how many waiting deliveries were given up
 */
export async function disableDestination(db, name) {
  return db.transaction(async (tx) => {
    // The names are the code's (lib/leads/delivery/destinations.ts), which this plain script
    // cannot import: one an instance never switched on here has nothing to switch off.
    const known = (
      await tx.query(`select name from lead_delivery.destinations order by name`)
    ).rows.map((row) => String(row.name))
    if (!known.includes(name))
      throw new Error(
        `destino desconhecido: "${name}". ` +
          (known.length > 0
            ? `Este banco conhece: ${known.join(', ')}.`
            : 'Este banco ainda não conhece nenhum: um servidor com e-mail, webhook ou RD Station ' +
              'configurado os registra ao iniciar.'),
      )
    await tx.query(
      `insert into lead_delivery.destinations as d (name, enabled) values ($1, false)
       on conflict (name) do update set enabled = false, changed_at = now() where d.enabled`,
      [name],
    )
    const given = await tx.query(
      `update lead_delivery.deliveries set status = 'failed', failed_at = now(), lead = null,
         leased_until = null, last_error = 'destination disabled by an operator'
       where destination = $1 and status = 'pending' returning id`,
      [name],
    )
    return given.rows.length
  })
}

/**
 * Sends the failed deliveries again (`npm run leads -- --retry-failed`): their copies were
 * emptied when given up, so each is copied again from its lead or conversion, if it is still
 * there. Only those whose destination is on: what `--disable` gave up stays given up
 * (failedWhileOff counts them). Run as the database owner, who may read both tables.
 * @param {Database} db
 * @param {string} [destination] only this one
 * @returns {Promise<number>}
 */
export async function retryFailed(db, destination) {
  return db.transaction(async (tx) => {
    const again = `status = 'pending', next_attempt_at = now(), created_at = now(),
       failed_at = null, leased_until = null`
    const on = `exists (select from lead_delivery.destinations x
       where x.name = d.destination and x.enabled)`
    const leads = await tx.query(
      `update lead_delivery.deliveries d set lead = to_jsonb(c), ${again}
       from public.dados_cliente c
       where c.lead_uid = d.lead_uid and d.status = 'failed' and ${on}
         and ($1::text is null or d.destination = $1)
       returning d.id`,
      [destination ?? null],
    )
    // A database migrated before materials existed has no conversions to copy from.
    const materials = (await tx.query(`select to_regclass('public.conversoes_material') as t`))
      .rows[0]?.t
    const conversions = materials
      ? await tx.query(
          `update lead_delivery.deliveries d set lead = to_jsonb(c), ${again}
           from public.conversoes_material c
           where c.conversao_uid = d.conversao_uid and d.status = 'failed' and ${on}
             and ($1::text is null or d.destination = $1)
           returning d.id`,
          [destination ?? null],
        )
      : { rows: [] }
    return leads.rows.length + conversions.rows.length
  })
}

/**
 * The failed deliveries retryFailed leaves alone because their destination is off, per
 * destination (`npm run leads -- --retry-failed` says so). Run as the database owner.
 * @param {Database} db
 * @param {string} [destination] only this one
 * @returns {Promise<{ destination: string, failed: number }[]>}
 */
export async function failedWhileOff(db, destination) {
  const result = await db.query(
    `select d.destination, count(*)::int as failed from lead_delivery.deliveries d
     where d.status = 'failed' and ($1::text is null or d.destination = $1)
       and not exists (select from lead_delivery.destinations x
         where x.name = d.destination and x.enabled)
     group by d.destination order by d.destination`,
    [destination ?? null],
  )
  return result.rows.map((row) => ({
    destination: String(row.destination),
    failed: Number(row.failed),
  }))
}

/**
 * How long an instance's report of what it sends to counts as alive: a few polls (2 s), so that
 * a stopped instance stops counting within half a minute.
 */
export const COURIER_ALIVE_SECONDS = 30

/**
 * This instance is alive and sends to `destinations` (an empty list too: it is running, and
 * sends to none).
 * @param {Database} db
 * @param {string} instance
 * @param {readonly string[]} destinations
 */
export async function reportCourier(db, instance, destinations) {
  await asCourier(db, (tx) =>
    tx.query(`select lead_delivery.report_courier($1, $2::text[])`, [instance, destinations]),
  )
}

/** What the privacy policy promises for leads (bundled `legalPage-privacidade`, a test holds it). */
export const LEAD_RETENTION_MONTHS = 12

/**
 * Deletes delivery rows older than the leads' retention (their copies are long empty; this drops
 * the ids and dates too), materials' conversions as old, and reports of instances gone for a day.
 * @param {Database} db
 * @param {{ asRole?: boolean }} [options]
 * @returns {Promise<number>} the delivery rows deleted
 */
export async function purgeExpired(db, { asRole = true } = {}) {
  return asCourier(
    db,
    async (tx) => {
      // Materials' conversions past the retention, with their deliveries (the privacy policy).
      await tx.query(`select lead_delivery.purge_conversions($1)`, [LEAD_RETENTION_MONTHS])
      // The other delivery rows as old, and reports of instances gone for a day.
      const gone = await tx.query(`select lead_delivery.purge_expired($1) as n`, [
        LEAD_RETENTION_MONTHS,
      ])
      return Number(gone.rows[0]?.n ?? 0)
    },
    asRole,
  )
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
      `select id, uid, material, destination, lead, attempts, created_at
       from lead_delivery.claim_due($1::text[], $2, $3)`,
      [destinations, limit, LEASE_SECONDS],
    ),
  )
  return result.rows.map((row) => ({
    id: Number(row.id),
    kind: /** @type {DeliveryKind} */ (row.material === true ? 'material' : 'demo'),
    uid: String(row.uid),
    leadUid: String(row.uid),
    destination: String(row.destination),
    lead: /** @type {Record<string, unknown>} */ (
      typeof row.lead === 'string' ? JSON.parse(row.lead) : (row.lead ?? {})
    ),
    attempts: Number(row.attempts),
    createdAt: new Date(/** @type {string} */ (row.created_at)).getTime(),
  }))
}

/**
 * Records an attempt's outcome, only while this instance's claim holds (same attempt count, lease
 * not passed; the database checks both): a late answer changes nothing, and the row is claimed
 * again. Delivered or given up, the row's copy of the lead is emptied.
 * @param {Database} db
 * @param {Claimed} claimed
 * @param {{ kind: 'delivered' } | { kind: 'retry', at: number, reason: string } | { kind: 'failed', reason: string }} step
 * @returns {Promise<boolean>} whether the row was still ours
 */
export async function recordAttempt(db, claimed, step) {
  const result = await asCourier(db, (tx) =>
    tx.query(
      `select lead_delivery.record_attempt($1, $2, $3,
         to_timestamp($4::double precision / 1000), $5) as ours`,
      [
        claimed.id,
        claimed.attempts,
        step.kind,
        step.kind === 'retry' ? step.at : null,
        step.kind === 'delivered' ? null : step.reason,
      ],
    ),
  )
  return result.rows[0]?.ours === true
}

/**
 * Pending, failed and delivered counts, the oldest pending delivery's age, and whether a running
 * instance sends to it (`sent`), per destination.
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
         extract(epoch from now() - min(created_at) filter (where status = 'pending')) as oldest,
         exists (select from lead_delivery.couriers c
           where c.seen_at > now() - make_interval(secs => $1)
             and d.destination = any(c.destinations)) as sent
       from lead_delivery.deliveries d group by destination order by destination`,
        [COURIER_ALIVE_SECONDS],
      ),
    asRole,
  )
  return result.rows.map((row) => ({
    destination: String(row.destination),
    pending: Number(row.pending),
    failed: Number(row.failed),
    delivered: Number(row.delivered),
    oldestPendingSeconds: row.oldest == null ? null : Math.round(Number(row.oldest)),
    sent: row.sent === true,
  }))
}

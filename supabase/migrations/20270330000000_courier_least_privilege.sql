-- Least privilege in the grants, not only in the code (issue 66, docs/leads.md "Nothing lost, at
-- most twice"). Until now the courier's login (lead_courier, LEAD_DELIVERY_DATABASE_URL) could
-- UPDATE and DELETE lead_delivery.deliveries and UPDATE lead_delivery.destinations: a bug or a
-- stolen password could switch a destination off, delete deliveries or mark them delivered, which
-- only queue.mjs's SQL kept from happening.
--
-- Now the courier keeps SELECT on the queue (/api/health's counts) and writes only through the
-- SECURITY DEFINER functions below, each doing one thing the courier's job needs and no more:
--
--   enable_destinations  switches destinations on, never off;
--   claim_due            leases due deliveries (SKIP LOCKED, attempts + 1);
--   record_attempt       records an outcome only for a row this claim still holds: same attempts
--                        count, still pending, lease not passed (leased_until > now());
--   report_courier       refreshes one instance's report;
--   purge_expired        deletes delivery rows and conversions past the retention, never younger
--                        than the privacy policy's 12 months whatever the caller asks, and reports
--                        of instances gone for a day.
--
-- Functions rather than column grants or a trigger: a column grant cannot say "only while your
-- lease holds" nor "on, never off", and a trigger would have to tell the courier from the operator
-- by current_user in every write. Switching off (`npm run leads -- --disable`) and re-queueing
-- (`--retry-failed`) stay the operator's, the database owner's, done in plain SQL by queue.mjs.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite. Running an older
-- migration again gives the old grants back: run this one after it.

revoke insert, update, delete, truncate on table lead_delivery.destinations from lead_courier;
revoke insert, update, delete, truncate on table lead_delivery.deliveries from lead_courier;
revoke insert, update, delete, truncate on table lead_delivery.couriers from lead_courier;
grant select on table lead_delivery.destinations, lead_delivery.deliveries, lead_delivery.couriers
  to lead_courier;

create or replace function lead_delivery.enable_destinations(names text[])
returns void
language sql
security definer
set search_path = pg_catalog, lead_delivery
as $$
  insert into lead_delivery.destinations as d (name, enabled)
  select distinct n, true from unnest(names) as n
  on conflict (name) do update set enabled = true, changed_at = now() where not d.enabled
$$;

create or replace function lead_delivery.claim_due(wanted text[], max_rows integer, lease_secs integer)
returns table (
  id bigint, uid uuid, material boolean, destination text, lead jsonb, attempts integer,
  created_at timestamptz
)
language sql
security definer
set search_path = pg_catalog, lead_delivery
as $$
  with due as (
    select q.id from lead_delivery.deliveries q
    where q.status = 'pending' and q.destination = any(wanted)
      and q.next_attempt_at <= now()
      and (q.leased_until is null or q.leased_until < now())
    order by q.next_attempt_at
    limit greatest(max_rows, 0)
    for update skip locked
  )
  update lead_delivery.deliveries d
  set leased_until = now() + make_interval(secs => least(greatest(lease_secs, 1), 600)),
    attempts = d.attempts + 1
  from due where d.id = due.id
  returning d.id, coalesce(d.lead_uid, d.conversao_uid), d.conversao_uid is not null,
    d.destination, d.lead, d.attempts, d.created_at
$$;

create or replace function lead_delivery.record_attempt(
  delivery_id bigint, claimed_attempts integer, outcome text, retry_at timestamptz, reason text
)
returns boolean
language plpgsql
security definer
set search_path = pg_catalog, lead_delivery
as $$
begin
  if outcome is null or outcome not in ('delivered', 'retry', 'failed') then
    raise exception 'unknown outcome: %', outcome using errcode = '22023';
  end if;
  update lead_delivery.deliveries d set
    status = case outcome when 'retry' then 'pending' else outcome end,
    delivered_at = case when outcome = 'delivered' then now() else d.delivered_at end,
    failed_at = case when outcome = 'failed' then now() else d.failed_at end,
    next_attempt_at = case when outcome = 'retry' then coalesce(retry_at, now())
      else d.next_attempt_at end,
    leased_until = null,
    last_error = case when outcome = 'delivered' then null else left(reason, 300) end,
    lead = case when outcome = 'retry' then d.lead else null end
  where d.id = delivery_id and d.attempts = claimed_attempts and d.status = 'pending'
    and d.leased_until > now();
  return found;
end
$$;

create or replace function lead_delivery.report_courier(who text, sends text[])
returns void
language sql
security definer
set search_path = pg_catalog, lead_delivery
as $$
  insert into lead_delivery.couriers (instance, destinations, seen_at) values (who, sends, now())
  on conflict (instance) do update set destinations = excluded.destinations, seen_at = now()
$$;

-- 12: the privacy policy's retention (LEAD_RETENTION_MONTHS in queue.mjs) is the least the
-- courier may ask for; a shorter one needs a migration, not a call.
create or replace function lead_delivery.purge_expired(months integer)
returns integer
language sql
security definer
set search_path = pg_catalog, lead_delivery
as $$
  delete from lead_delivery.couriers where seen_at < now() - interval '1 day';
  with gone as (
    delete from lead_delivery.deliveries
    where created_at < now() - make_interval(months => greatest(months, 12))
    returning 1
  )
  select count(*)::integer from gone
$$;

-- The same floor for materials' conversions (20270320000050 allowed any month from 1).
create or replace function lead_delivery.purge_conversions(months integer)
returns integer
language sql
security definer
set search_path = pg_catalog, public
as $$
  with gone as (
    delete from public.conversoes_material
    where created_at < now() - make_interval(months => greatest(months, 12))
    returning 1
  )
  select count(*)::integer from gone
$$;

revoke all on function lead_delivery.enable_destinations(text[]) from public;
revoke all on function lead_delivery.claim_due(text[], integer, integer) from public;
revoke all on function lead_delivery.record_attempt(bigint, integer, text, timestamptz, text)
  from public;
revoke all on function lead_delivery.report_courier(text, text[]) from public;
revoke all on function lead_delivery.purge_expired(integer) from public;
revoke all on function lead_delivery.purge_conversions(integer) from public;
grant execute on function lead_delivery.enable_destinations(text[]) to lead_courier;
grant execute on function lead_delivery.claim_due(text[], integer, integer) to lead_courier;
grant execute on function lead_delivery.record_attempt(bigint, integer, text, timestamptz, text)
  to lead_courier;
grant execute on function lead_delivery.report_courier(text, text[]) to lead_courier;
grant execute on function lead_delivery.purge_expired(integer) to lead_courier;
grant execute on function lead_delivery.purge_conversions(integer) to lead_courier;

-- Materials' conversions reach the same destinations as leads (issue 65, docs/leads.md
-- "Materials"), through the same queue, so that they are delivered as leads are: queued by the
-- database in the conversion's own transaction, claimed with SKIP LOCKED and a lease, retried for
-- 24 h, their copy emptied once delivered and erased with the conversion.
--
-- 1. lead_delivery.deliveries points at a lead (lead_uid) or at a conversion (conversao_uid),
--    exactly one of the two; erasing a conversion erases its deliveries (ON DELETE CASCADE).
-- 2. A trigger on public.conversoes_material queues one delivery per enabled destination, except
--    the sales e-mail ('email'), queued only when the material asks for it (avisar_comercial):
--    most downloads are marketing's, and sales asked not to get a mail for each.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite. anon gains nothing.

alter table lead_delivery.deliveries add column if not exists conversao_uid uuid;
alter table lead_delivery.deliveries alter column lead_uid drop not null;

do $$
begin
  if not exists (
    select from pg_catalog.pg_constraint where conname = 'deliveries_conversao_uid_fkey'
      and conrelid = 'lead_delivery.deliveries'::regclass
  ) then
    alter table lead_delivery.deliveries
      add constraint deliveries_conversao_uid_fkey foreign key (conversao_uid)
      references public.conversoes_material (conversao_uid) on delete cascade;
  end if;
  if not exists (
    select from pg_catalog.pg_constraint where conname = 'deliveries_one_subject'
      and conrelid = 'lead_delivery.deliveries'::regclass
  ) then
    alter table lead_delivery.deliveries
      add constraint deliveries_one_subject check (num_nonnulls(lead_uid, conversao_uid) = 1);
  end if;
end
$$;

-- One delivery per conversion and destination, as (lead_uid, destination) is for leads.
create unique index if not exists deliveries_conversao_destination_key
  on lead_delivery.deliveries (conversao_uid, destination);

create or replace function lead_delivery.enqueue_conversion()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, lead_delivery
as $$
begin
  insert into lead_delivery.deliveries (conversao_uid, destination, lead)
  select NEW.conversao_uid, d.name, to_jsonb(NEW) from lead_delivery.destinations d
  where d.enabled and (d.name <> 'email' or NEW.avisar_comercial);
  return null;
end
$$;

revoke all on function lead_delivery.enqueue_conversion() from public;

drop trigger if exists lead_delivery_enqueue on public.conversoes_material;
create trigger lead_delivery_enqueue
  after insert on public.conversoes_material
  for each row execute function lead_delivery.enqueue_conversion();

-- A material's conversion is kept 12 months (the privacy policy, LEAD_RETENTION_MONTHS in
-- queue.mjs): the courier, which may not read or delete the table, purges older ones through this
-- function, with their deliveries (on delete cascade). Unlike dados_cliente, no other system
-- works from these rows, so the site itself keeps the promise.
create or replace function lead_delivery.purge_conversions(months integer)
returns integer
language sql
security definer
set search_path = pg_catalog, public
as $$
  with gone as (
    delete from public.conversoes_material
    where created_at < now() - make_interval(months => greatest(months, 1))
    returning 1
  )
  select count(*)::integer from gone
$$;

revoke all on function lead_delivery.purge_conversions(integer) from public;
grant execute on function lead_delivery.purge_conversions(integer) to lead_courier;

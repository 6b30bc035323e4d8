-- Every lead as the visitor gave it, and no copy past its time (issue 49, docs/leads.md).
--
-- 1. dados_cliente.lead_uid: the lead's stable id, drawn by the database (anon cannot set it).
--    Each delivery points at it with ON DELETE CASCADE: erasing a lead erases its deliveries.
-- 2. dados_cliente.dados_formulario: the form's fields as the server validated them (company,
--    e-mail, fleet size, message, the calculator's figures), which deliveries read instead of
--    parsing the Portuguese texts back. SPEC's columns and texts are unchanged.
-- 3. lead_delivery.couriers: which destinations each running instance can send to, refreshed
--    every round, so that a lead waiting for a destination no instance sends to shows in
--    /api/health. Destinations are only ever switched on by an instance (its settings), and off
--    by an operator (`npm run leads -- --disable <name>`): an instance without settings changes
--    nothing. The names live in code (lib/leads/delivery/queue.mjs), not in a CHECK.
-- 4. The courier may delete: delivery rows past the leads' retention are purged.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.

alter table public.dados_cliente add column if not exists lead_uid uuid default gen_random_uuid();
update public.dados_cliente set lead_uid = gen_random_uuid() where lead_uid is null;
alter table public.dados_cliente alter column lead_uid set not null;
create unique index if not exists dados_cliente_lead_uid_key on public.dados_cliente (lead_uid);

alter table public.dados_cliente add column if not exists dados_formulario jsonb;
grant insert (dados_formulario) on table public.dados_cliente to anon;

-- An object of 8000 characters at most: the fields within the form's limits take under 5000 even
-- when every character of the message must be escaped in JSON.
drop policy if exists "anon lead form data is bounded" on public.dados_cliente;
create policy "anon lead form data is bounded" on public.dados_cliente
  as restrictive for insert to anon
  with check (
    dados_formulario is null
    or (jsonb_typeof(dados_formulario) = 'object'
      and char_length(dados_formulario::text) <= 8000)
  );

-- Deliveries queued before this migration: link each to its lead through the copy's id; a row
-- whose lead is gone (or whose copy was already emptied) has nothing left to link and goes.
update lead_delivery.deliveries d set lead_uid = c.lead_uid
  from public.dados_cliente c
  where d.lead is not null and (d.lead ->> 'id') = c.id::text and d.lead_uid <> c.lead_uid;
-- (A conversion's delivery, 20270320000050, has no lead_uid: left alone when this runs again.)
delete from lead_delivery.deliveries d
  where d.lead_uid is not null
    and not exists (select from public.dados_cliente c where c.lead_uid = d.lead_uid);

do $$
begin
  if not exists (
    select from pg_catalog.pg_constraint where conname = 'deliveries_lead_uid_fkey'
      and conrelid = 'lead_delivery.deliveries'::regclass
  ) then
    alter table lead_delivery.deliveries
      add constraint deliveries_lead_uid_fkey foreign key (lead_uid)
      references public.dados_cliente (lead_uid) on delete cascade;
  end if;
end
$$;

-- A given-up or delivered row keeps no copy (queue.mjs empties it; this catches older rows).
update lead_delivery.deliveries set lead = null where status <> 'pending' and lead is not null;

alter table lead_delivery.destinations drop constraint if exists destinations_name_check;

create table if not exists lead_delivery.couriers (
  instance text primary key check (char_length(instance) <= 100),
  destinations text[] not null,
  seen_at timestamptz not null default now()
);
revoke all on table lead_delivery.couriers from public;
grant select, insert, update, delete on table lead_delivery.couriers to lead_courier;
grant delete on table lead_delivery.deliveries to lead_courier;

create or replace function lead_delivery.enqueue()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, lead_delivery
as $$
begin
  if NEW.atendimento_ia like 'Dados do formulário do site%' then
    insert into lead_delivery.deliveries (lead_uid, destination, lead)
    select NEW.lead_uid, d.name, to_jsonb(NEW) from lead_delivery.destinations d where d.enabled;
  end if;
  return null;
end
$$;

revoke all on function lead_delivery.enqueue() from public;

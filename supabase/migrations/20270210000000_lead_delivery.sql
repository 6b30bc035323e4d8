-- Every lead reaches sales and marketing (issue 46, docs/leads.md "Where each lead goes").
--
-- 1. dados_cliente.whatsapp_opt_in: whether the visitor ticked "I agree to be contacted on
--    WhatsApp about the demo". The site writes true or false; older rows and the WhatsApp agent's
--    own stay null (unknown). anon may insert it, as the other columns.
-- 2. The deliveries of each lead to e-mail, a signed webhook and RD Station, queued by the database
--    itself: a trigger on dados_cliente adds one row per enabled destination in the same
--    transaction as the lead, so no instance's crash can lose one, and the site's two inserts
--    (SPEC section 7) stay as they are. The server reads and marks them as the role lead_courier.
--
-- The schema lead_delivery is not exposed by Supabase's REST API; anon cannot touch it.
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.

alter table public.dados_cliente add column if not exists whatsapp_opt_in boolean;
grant insert (whatsapp_opt_in) on table public.dados_cliente to anon;

do $$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'lead_courier') then
    create role lead_courier nologin;
  end if;
exception
  when duplicate_object or unique_violation then null;
end
$$;

create schema if not exists lead_delivery;
revoke all on schema lead_delivery from public;
grant usage on schema lead_delivery to lead_courier;

-- Which destinations the server has configured (it writes this at start): a lead is queued for
-- those enabled when it is stored, so adding one later never sends it the old leads.
create table if not exists lead_delivery.destinations (
  name text primary key check (name in ('email', 'webhook', 'rdstation')),
  enabled boolean not null default false,
  changed_at timestamptz not null default now()
);

-- One row per lead and destination. `lead` is the dados_cliente row as stored (to_jsonb), emptied
-- once delivered; `lead_uid` is the lead's stable id (the webhook's id, the same on every retry).
-- A delivery is claimed by one instance at a time: `leased_until` (taken with SKIP LOCKED).
create table if not exists lead_delivery.deliveries (
  id bigint generated always as identity primary key,
  lead_uid uuid not null,
  destination text not null,
  lead jsonb,
  created_at timestamptz not null default now(),
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  leased_until timestamptz,
  last_error text check (char_length(last_error) <= 300),
  delivered_at timestamptz,
  failed_at timestamptz,
  unique (lead_uid, destination)
);

create index if not exists deliveries_due_idx
  on lead_delivery.deliveries (next_attempt_at) where status = 'pending';

revoke all on all tables in schema lead_delivery from public;
grant select, insert, update on table lead_delivery.destinations to lead_courier;
grant select, update on table lead_delivery.deliveries to lead_courier;

-- Only the site's leads (their text starts as lib/leads/compose.ts writes it), not rows the
-- WhatsApp agent may add itself. SECURITY DEFINER: anon, who inserts the lead, has no right here.
create or replace function lead_delivery.enqueue()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, lead_delivery
as $$
declare
  uid uuid := gen_random_uuid();
begin
  if NEW.atendimento_ia like 'Dados do formulário do site%' then
    insert into lead_delivery.deliveries (lead_uid, destination, lead)
    select uid, d.name, to_jsonb(NEW) from lead_delivery.destinations d where d.enabled;
  end if;
  return null;
end
$$;

revoke all on function lead_delivery.enqueue() from public;

drop trigger if exists lead_delivery_enqueue on public.dados_cliente;
create trigger lead_delivery_enqueue
  after insert on public.dados_cliente
  for each row execute function lead_delivery.enqueue();

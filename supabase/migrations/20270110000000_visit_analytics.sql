-- Visits counted without cookies, joined to the leads (issue 36, docs/analytics.md).
--
-- The site counts page views from a first-party beacon and writes daily aggregates here in
-- batches: views and daily unique visitors per page, per utm_campaign, utm_source/referrer
-- ("source"), utm_medium and referrer host, and for the whole site. A visitor is a keyed hash of
-- (a random daily salt, IP, user agent, site) made by the server; the salt is deleted within 48 h,
-- after which no hash can be linked to anyone. The hashes themselves are kept here only as long as
-- a day can still receive views (2 days), so that N instances count each visitor once a day.
--
-- Least privilege, three roles:
--   analytics_writer  may only call analytics.record_views(): it cannot read the aggregates, the
--                     visitor hashes or the leads.
--   analytics_reader  may read analytics.daily_counts and call analytics.lead_counts(), which
--                     gives lead counts per day, page, campaign and source: never a lead's row.
--   anon              is untouched: still insert-only on the lead tables (earlier migrations).
-- The server logs in as a role granted both (docs/analytics.md, "Production").
--
-- Everything lives in its own schema, `analytics`, which Supabase's REST API does not expose.
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.

do $$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'analytics_writer') then
    create role analytics_writer nologin;
  end if;
exception
  when duplicate_object or unique_violation then null;
end
$$;

do $$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'analytics_reader') then
    create role analytics_reader nologin;
  end if;
exception
  when duplicate_object or unique_violation then null;
end
$$;

create schema if not exists analytics;
revoke all on schema analytics from public;
grant usage on schema analytics to analytics_writer, analytics_reader;

-- One row per day (America/Sao_Paulo), dimension and key. `visitors` is the number of distinct
-- visitor hashes of that day and key: exact, because analytics.daily_visitors holds each once.
create table if not exists analytics.daily_counts (
  day date not null,
  dimension text not null
    check (dimension in ('site', 'page', 'campaign', 'source', 'medium', 'referrer')),
  key text not null check (char_length(key) <= 300),
  visits bigint not null default 0 check (visits >= 0),
  visitors bigint not null default 0 check (visitors >= 0),
  primary key (day, dimension, key)
);

-- The visitor hashes of the last days (HMAC truncated to 128 bits, hex), one per day and key.
-- Nobody but the functions below reads this table.
create table if not exists analytics.daily_visitors (
  day date not null,
  dimension text not null,
  key text not null,
  visitor text not null check (visitor ~ '^[0-9a-f]{32}$'),
  primary key (day, dimension, key, visitor)
);

-- Batches already written, so that a batch retried after its answer was lost (the database went
-- away after commit) is not counted twice.
create table if not exists analytics.batches (
  id uuid primary key,
  written_at timestamptz not null default now()
);

revoke all on all tables in schema analytics from public;
grant select on table analytics.daily_counts to analytics_reader;

-- Writes one batch: [{day, dimension, key, visits, visitors: [hash, ...]}, ...]. Returns false
-- when the batch id was already written. Campaign, source, medium and referrer values past the
-- 200th distinct one of a day count under '(outras)', whichever instance sent them.
create or replace function analytics.record_views(batch_id uuid, batch jsonb)
returns boolean
language plpgsql
security definer
set search_path = pg_catalog, analytics
as $$
declare
  item jsonb;
  the_day date;
  the_dimension text;
  the_key text;
  added bigint;
begin
  -- One writer at a time: the cap and the batch id are checked and written atomically.
  perform pg_advisory_xact_lock(hashtext('analytics.record_views'));
  insert into analytics.batches (id) values (batch_id) on conflict do nothing;
  if not found then
    return false;
  end if;

  for item in select value from jsonb_array_elements(batch) loop
    the_day := (item ->> 'day')::date;
    the_dimension := item ->> 'dimension';
    the_key := left(item ->> 'key', 300);
    if the_dimension in ('campaign', 'source', 'medium', 'referrer')
      and the_key <> '(outras)'
      and not exists (
        select from analytics.daily_counts c
        where c.day = the_day and c.dimension = the_dimension and c.key = the_key
      )
      and (
        select count(*) from analytics.daily_counts c
        where c.day = the_day and c.dimension = the_dimension and c.key <> '(outras)'
      ) >= 200
    then
      the_key := '(outras)';
    end if;

    insert into analytics.daily_counts as c (day, dimension, key, visits)
    values (the_day, the_dimension, the_key, greatest(0, coalesce((item ->> 'visits')::bigint, 0)))
    on conflict (day, dimension, key) do update set visits = c.visits + excluded.visits;

    with inserted as (
      insert into analytics.daily_visitors (day, dimension, key, visitor)
      select the_day, the_dimension, the_key, v.value
      from jsonb_array_elements_text(coalesce(item -> 'visitors', '[]'::jsonb)) as v
      on conflict do nothing
      returning 1
    )
    select count(*) into added from inserted;

    if added > 0 then
      update analytics.daily_counts c set visitors = c.visitors + added
      where c.day = the_day and c.dimension = the_dimension and c.key = the_key;
    end if;
  end loop;

  -- A day older than two days gets no more views (the salt that made its hashes is gone).
  delete from analytics.daily_visitors where day < current_date - 2;
  delete from analytics.batches where written_at < now() - interval '2 days';
  return true;
end
$$;

-- Leads per day (America/Sao_Paulo), page, campaign and source, from what each stored lead
-- carries: dados_cliente.pagina (a campaign page's slug; none for the home page) and the "Origem"
-- part of its text (lib/leads/compose.ts), whose «» marks visitors cannot type. Counts only.
create or replace function analytics.lead_counts(first_day date, last_day date)
returns table (day date, page text, campaign text, source text, leads bigint)
language sql
stable
security definer
set search_path = pg_catalog, public
as $$
  with site_leads as (
    select
      (d.created_at at time zone 'America/Sao_Paulo')::date as day,
      case when d.pagina is null then '/' else '/p/' || d.pagina end as page,
      substring(d.atendimento_ia from 'Origem: .*$') as origin
    from public.dados_cliente d
    where d.atendimento_ia like 'Dados do formulário do site%'
      and d.created_at >= (first_day::timestamp at time zone 'America/Sao_Paulo')
      and d.created_at < ((last_day + 1)::timestamp at time zone 'America/Sao_Paulo')
  )
  select
    day,
    page,
    coalesce(nullif(substring(origin from 'utm_campaign=«([^»]*)»'), ''), '(sem campanha)'),
    coalesce(
      nullif(lower(substring(origin from 'utm_source=«([^»]*)»')), ''),
      nullif(lower(substring(origin from 'referrer=«[a-zA-Z][a-zA-Z0-9+.-]*://([^/:?#»]+)')), ''),
      '(direto)'
    ),
    count(*)
  from site_leads
  group by 1, 2, 3, 4
$$;

revoke all on function analytics.record_views(uuid, jsonb) from public;
revoke all on function analytics.lead_counts(date, date) from public;
grant execute on function analytics.record_views(uuid, jsonb) to analytics_writer;
grant execute on function analytics.lead_counts(date, date) to analytics_reader;

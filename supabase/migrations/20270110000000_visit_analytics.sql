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
-- Its functions are defined once, in 20270410000000_analytics_generic.sql.

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


-- Landing pages, contact clicks, reading, and campaigns that cannot be crowded out (issue 45,
-- docs/analytics.md). The dimensions are declared in lib/analytics/measures.mjs; the list this
-- file repeats in CHECKs is dropped by 20270301000000_analytics_dimensions.sql.
--
-- * daily_counts gains the dimension 'landing' (the visit's entry page), one column per contact
--   link (whatsapp, phone, email: the day's visitors who clicked it, each hash kept once in
--   daily_visitors under '<channel>:<dimension>') and the reading of views (reads: views
--   measured, read_seconds: their visible seconds, read_scroll: the sum of their deepest scroll
--   in %).
-- * A capped value (campaign, source, medium, referrer) past the day's 200 is not lost to
--   '(outras)' for good: it waits in daily_candidates (at most 10,000 a day and dimension) and,
--   once 3 distinct visitors arrived from it that day, gets its own row with what it had, its
--   views taken back from '(outras)'. 200 invented values at midnight no longer hide the day's
--   real campaign.
-- * Marketing can name a campaign in the Studio (the campaign link builder, POST
--   /api/analytics/campaigns): analytics.named_values holds it, and a named value always gets its
--   own row, however many values came before it.
-- * Visitor hashes are deleted once their (Sao Paulo) day is over, by the daily purge the flusher
--   calls even when no beacon came, not only when a batch is written.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.

alter table analytics.daily_counts add column if not exists whatsapp bigint not null default 0;
alter table analytics.daily_counts add column if not exists phone bigint not null default 0;
alter table analytics.daily_counts add column if not exists email bigint not null default 0;
alter table analytics.daily_counts add column if not exists reads bigint not null default 0;
alter table analytics.daily_counts add column if not exists read_seconds bigint not null default 0;
alter table analytics.daily_counts add column if not exists read_scroll bigint not null default 0;

alter table analytics.daily_counts drop constraint if exists daily_counts_dimension_check;
alter table analytics.daily_counts add constraint daily_counts_dimension_check
  check (dimension in ('site', 'page', 'landing', 'campaign', 'source', 'medium', 'referrer'));

create table if not exists analytics.daily_candidates (
  day date not null,
  dimension text not null,
  key text not null check (char_length(key) <= 300),
  visits bigint not null default 0,
  visitors bigint not null default 0,
  primary key (day, dimension, key)
);
revoke all on table analytics.daily_candidates from public;

-- Values marketing named in the Studio: never folded into '(outras)'. Names only, no visitor data.
create table if not exists analytics.named_values (
  dimension text not null check (dimension in ('campaign', 'source', 'medium', 'referrer')),
  key text not null check (char_length(key) between 1 and 100),
  named_at timestamptz not null default now(),
  primary key (dimension, key)
);
revoke all on table analytics.named_values from public;
grant select on table analytics.named_values to analytics_reader;

-- Names one value (the writer may add names, not read them); at most 1,000 names in all.
create or replace function analytics.name_value(the_dimension text, the_key text)
returns boolean
language plpgsql
security definer
set search_path = pg_catalog, analytics
as $$
begin
  if (select count(*) from analytics.named_values) >= 1000 then
    return false;
  end if;
  insert into analytics.named_values (dimension, key) values (the_dimension, the_key)
  on conflict do nothing;
  return true;
end
$$;

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
  the_visits bigint;
  added bigint;
  channel text;
  candidate analytics.daily_candidates%rowtype;
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
    the_visits := greatest(0, coalesce((item ->> 'visits')::bigint, 0));
    if the_dimension in ('campaign', 'source', 'medium', 'referrer')
      and the_key <> '(outras)'
      and not exists (
        select from analytics.daily_counts c
        where c.day = the_day and c.dimension = the_dimension and c.key = the_key
      )
      and not exists (
        select from analytics.named_values n
        where n.dimension = the_dimension and n.key = the_key
      )
      and (
        select count(*) from analytics.daily_counts c
        where c.day = the_day and c.dimension = the_dimension and c.key <> '(outras)'
      ) >= 200
    then
      -- Past the cap: a candidate until 3 visitors arrived from it this day.
      if exists (
        select from analytics.daily_candidates d
        where d.day = the_day and d.dimension = the_dimension and d.key = the_key
      ) or (
        select count(*) from analytics.daily_candidates d
        where d.day = the_day and d.dimension = the_dimension
      ) < 10000 then
        insert into analytics.daily_candidates as d (day, dimension, key, visits)
        values (the_day, the_dimension, the_key, the_visits)
        on conflict (day, dimension, key) do update set visits = d.visits + excluded.visits;
        with inserted as (
          insert into analytics.daily_visitors (day, dimension, key, visitor)
          select the_day, 'candidate:' || the_dimension, the_key, v.value
          from jsonb_array_elements_text(coalesce(item -> 'visitors', '[]'::jsonb)) as v
          on conflict do nothing
          returning 1
        )
        select count(*) into added from inserted;
        update analytics.daily_candidates d set visitors = d.visitors + added
        where d.day = the_day and d.dimension = the_dimension and d.key = the_key
        returning * into candidate;
        if candidate.visitors >= 3 then
          -- Promoted: its own row with what it had; its earlier views leave '(outras)'.
          update analytics.daily_counts c
          set visits = greatest(0, c.visits - (candidate.visits - the_visits))
          where c.day = the_day and c.dimension = the_dimension and c.key = '(outras)';
          insert into analytics.daily_counts (day, dimension, key, visits, visitors)
          values (the_day, the_dimension, the_key, candidate.visits - the_visits, 0);
          insert into analytics.daily_visitors (day, dimension, key, visitor)
          select the_day, the_dimension, the_key, v.visitor
          from analytics.daily_visitors v
          where v.day = the_day and v.dimension = 'candidate:' || the_dimension
            and v.key = the_key
          on conflict do nothing;
          delete from analytics.daily_visitors v
          where v.day = the_day and v.dimension = 'candidate:' || the_dimension
            and v.key = the_key;
          delete from analytics.daily_candidates d
          where d.day = the_day and d.dimension = the_dimension and d.key = the_key;
          update analytics.daily_counts c set visitors = (
            select count(*) from analytics.daily_visitors v
            where v.day = the_day and v.dimension = the_dimension and v.key = the_key
          )
          where c.day = the_day and c.dimension = the_dimension and c.key = the_key;
        else
          the_key := '(outras)';
        end if;
      else
        the_key := '(outras)';
      end if;
    end if;

    insert into analytics.daily_counts as c
      (day, dimension, key, visits, reads, read_seconds, read_scroll)
    values (
      the_day, the_dimension, the_key, the_visits,
      greatest(0, coalesce((item ->> 'reads')::bigint, 0)),
      greatest(0, coalesce((item ->> 'readSeconds')::bigint, 0)),
      greatest(0, coalesce((item ->> 'readScroll')::bigint, 0))
    )
    on conflict (day, dimension, key) do update set
      visits = c.visits + excluded.visits,
      reads = c.reads + excluded.reads,
      read_seconds = c.read_seconds + excluded.read_seconds,
      read_scroll = c.read_scroll + excluded.read_scroll;

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

    -- Contact clicks: the visitors of the day who clicked each link, once each.
    foreach channel in array array['whatsapp', 'phone', 'email'] loop
      continue when item -> 'contacts' -> channel is null;
      with inserted as (
        insert into analytics.daily_visitors (day, dimension, key, visitor)
        select the_day, channel || ':' || the_dimension, the_key, v.value
        from jsonb_array_elements_text(item -> 'contacts' -> channel) as v
        on conflict do nothing
        returning 1
      )
      select count(*) into added from inserted;
      if added > 0 then
        execute format(
          'update analytics.daily_counts c set %1$I = c.%1$I + $1 '
          'where c.day = $2 and c.dimension = $3 and c.key = $4',
          channel
        ) using added, the_day, the_dimension, the_key;
      end if;
    end loop;
  end loop;

  delete from analytics.batches where written_at < now() - interval '2 days';
  return true;
end
$$;

-- The daily purge (lib/analytics/collect.ts calls it once a Sao Paulo day, after a write or an
-- empty flush): aggregates past keep_months (never under 13), and every visitor hash and candidate
-- of a day that is over, so no hash outlives its day.
create or replace function analytics.purge_aggregates(keep_months integer)
returns bigint
language plpgsql
security definer
set search_path = pg_catalog, analytics
as $$
declare
  removed bigint;
  today date := (now() at time zone 'America/Sao_Paulo')::date;
begin
  delete from analytics.daily_counts
  where day < (today - make_interval(months => greatest(coalesce(keep_months, 0), 13)))::date;
  get diagnostics removed = row_count;
  delete from analytics.daily_visitors where day < today;
  delete from analytics.daily_candidates where day < today;
  delete from analytics.batches where written_at < now() - interval '2 days';
  return removed;
end
$$;

-- Leads per day, page (where the form was sent from), entry page, campaign and source, from the
-- attribution columns (20270201000000_lead_attribution.sql); a row stored before them falls back
-- to its page slug and the "Origem" part of its text. Counts only.
drop function if exists analytics.lead_counts(date, date);
create function analytics.lead_counts(first_day date, last_day date)
returns table (day date, page text, landing text, campaign text, source text, leads bigint)
language sql
stable
security definer
set search_path = pg_catalog, public
as $$
  with site_leads as (
    select
      (d.created_at at time zone 'America/Sao_Paulo')::date as day,
      coalesce(
        d.origem_pagina,
        case when d.pagina is null then '/' else '/p/' || d.pagina end
      ) as page,
      d.origem_entrada,
      d.utm_campaign,
      lower(d.utm_source) as utm_source,
      d.referrer_host,
      -- The site fills origem_pagina on every lead since the columns exist: older rows only
      -- are read back from their text.
      case when d.origem_pagina is null
        then substring(d.atendimento_ia from 'Origem: .*$') end as origin
    from public.dados_cliente d
    where d.atendimento_ia like 'Dados do formulário do site%'
      and d.created_at >= (first_day::timestamp at time zone 'America/Sao_Paulo')
      and d.created_at < ((last_day + 1)::timestamp at time zone 'America/Sao_Paulo')
  )
  select
    day,
    page,
    coalesce(origem_entrada, page),
    coalesce(
      nullif(utm_campaign, ''),
      nullif(substring(origin from 'utm_campaign=«([^»]*)»'), ''),
      '(sem campanha)'
    ),
    coalesce(
      nullif(utm_source, ''),
      nullif(referrer_host, ''),
      nullif(lower(substring(origin from 'utm_source=«([^»]*)»')), ''),
      nullif(lower(substring(origin from 'referrer=«[a-zA-Z][a-zA-Z0-9+.-]*://([^/:?#»]+)')), ''),
      '(direto)'
    ),
    count(*)
  from site_leads
  group by 1, 2, 3, 4, 5
$$;

revoke all on function analytics.record_views(uuid, jsonb) from public;
revoke all on function analytics.lead_counts(date, date) from public;
revoke all on function analytics.purge_aggregates(integer) from public;
revoke all on function analytics.name_value(text, text) from public;
grant execute on function analytics.record_views(uuid, jsonb) to analytics_writer;
grant execute on function analytics.name_value(text, text) to analytics_writer;
grant execute on function analytics.lead_counts(date, date) to analytics_reader;
grant execute on function analytics.purge_aggregates(integer) to analytics_writer;

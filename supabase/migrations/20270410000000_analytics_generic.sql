-- Analytics that a new dimension does not touch (issue 68, docs/analytics.md "Adding a
-- dimension"): the dimensions are declared in lib/analytics/measures.mjs alone, and each function
-- here is defined once, generic over them (earlier migrations' definitions of record_views and
-- purge_aggregates were removed from their files: applied migrations are history, this one wins).
--
-- * A lead's and a download's `dimensoes`: every dimension's key, as its visit was counted
--   (lib/leads/compose.ts attributionColumns), so a dimension needs no column of its own.
-- * conversion_counts('lead' | 'material', ...): conversions per day and stored keys; a row
--   without them (older, or written by code deployed before this file) gets those its named
--   columns give. lead_counts and material_counts stay for code deployed before this file.
-- * purge_aggregates deletes from every analytics table with a `day`.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.

alter table public.dados_cliente add column if not exists dimensoes jsonb;
alter table public.conversoes_material add column if not exists dimensoes jsonb;
grant insert (dimensoes) on table public.dados_cliente to anon;
grant insert (dimensoes) on table public.conversoes_material to anon;

-- An object of at most a few hundred characters a key (measures.mjs cleans each). RESTRICTIVE, so
-- no permissive policy can widen it.
drop policy if exists "anon lead dimensions are bounded" on public.dados_cliente;
create policy "anon lead dimensions are bounded" on public.dados_cliente
  as restrictive for insert to anon
  with check (dimensoes is null
    or (jsonb_typeof(dimensoes) = 'object' and char_length(dimensoes::text) <= 4000));
drop policy if exists "anon conversion dimensions are bounded" on public.conversoes_material;
create policy "anon conversion dimensions are bounded" on public.conversoes_material
  as restrictive for insert to anon
  with check (dimensoes is null
    or (jsonb_typeof(dimensoes) = 'object' and char_length(dimensoes::text) <= 4000));

create or replace function analytics.conversion_counts(what text, first_day date, last_day date)
returns table (day date, dimensions jsonb, conversions bigint)
language sql
stable
security definer
set search_path = pg_catalog, public
as $$
  with conversions as (
    select d.created_at, d.dimensoes, d.origem_entrada, d.utm_campaign, d.utm_source,
      d.referrer_host, d.variant, null::text as material,
      coalesce(d.origem_pagina, case when d.pagina is null then '/' else '/p/' || d.pagina end)
        as page,
      -- The attribution columns exist since 20270201: older rows are read back from their text.
      case when d.origem_pagina is null
        then substring(d.atendimento_ia from 'Origem: .*$') end as origin
    from public.dados_cliente d
    where what = 'lead' and d.atendimento_ia like 'Dados do formulário do site%'
    union all
    -- A download stored without the form's path (never by the site) counts on its material's page.
    select c.created_at, c.dimensoes, c.origem_entrada, c.utm_campaign, c.utm_source,
      c.referrer_host, c.variant, c.identificador,
      coalesce(nullif(c.origem_pagina, ''), '/materiais/' || c.material), null
    from public.conversoes_material c
    where what = 'material' and c.tipo = 'material'
  )
  select
    (created_at at time zone 'America/Sao_Paulo')::date,
    jsonb_strip_nulls(jsonb_build_object(
      'page', page,
      'landing', coalesce(nullif(origem_entrada, ''), page),
      'campaign', coalesce(
        nullif(utm_campaign, ''),
        nullif(substring(origin from 'utm_campaign=«([^»]*)»'), ''),
        '(sem campanha)'
      ),
      'source', coalesce(
        nullif(lower(utm_source), ''),
        nullif(referrer_host, ''),
        nullif(lower(substring(origin from 'utm_source=«([^»]*)»')), ''),
        nullif(lower(substring(origin from 'referrer=«[a-zA-Z][a-zA-Z0-9+.-]*://([^/:?#»]+)')), ''),
        '(direto)'
      ),
      'variant', coalesce(nullif(variant, ''), '(sem experimento)'),
      'material', material
    )) || coalesce(dimensoes, '{}'),
    count(*)
  from conversions
  where created_at >= (first_day::timestamp at time zone 'America/Sao_Paulo')
    and created_at < ((last_day + 1)::timestamp at time zone 'America/Sao_Paulo')
  group by 1, 2
$$;

-- Writes one batch of lib/analytics/collect.ts: [{day, dimension, key, capped, visits, visitors,
-- contacts, addresses, reads, readSeconds, readScroll}, ...]; false when the batch id was already
-- written. A capped dimension's value past the day's 200 waits as a candidate until 3 address
-- buckets came from it (at most 100 promotions a day and dimension), unless it was named.
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
  promoted integer;
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
    if coalesce((item ->> 'capped')::boolean, true)
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
      -- Past the cap: a candidate until 3 addresses came from it this day.
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
        -- The union of its address buckets; anything but a whole number 0 to 255 is ignored.
        update analytics.daily_candidates d
        set visitors = d.visitors + added,
          address_buckets = array(
            select distinct b from unnest(d.address_buckets || array(
              select a.value::smallint
              from jsonb_array_elements_text(coalesce(item -> 'addresses', '[]'::jsonb)) as a
              where case when a.value ~ '^[0-9]{1,3}$' then a.value::integer < 256 else false end
            )) as b
            order by b
          )
        where d.day = the_day and d.dimension = the_dimension and d.key = the_key
        returning * into candidate;
        select coalesce(max(p.promotions), 0) into promoted
        from analytics.daily_promotions p
        where p.day = the_day and p.dimension = the_dimension;
        if cardinality(candidate.address_buckets) >= 3 and promoted < 100 then
          -- Promoted: its own row with what it had; its earlier views leave '(outras)'.
          insert into analytics.daily_promotions as p (day, dimension, promotions)
          values (the_day, the_dimension, 1)
          on conflict (day, dimension) do update set promotions = p.promotions + 1;
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

-- Deletes what is past its keeping (lib/analytics/retention.ts): every analytics table with a
-- `day` keeps keep_months (13 at least, so a wrong argument cannot wipe the year compared), but
-- today's counting's (visitor hashes, candidates, promotions) is gone once its day ends, batch ids
-- after 2 days. Returns the aggregate rows deleted.
create or replace function analytics.purge_aggregates(keep_months integer)
returns bigint
language plpgsql
security definer
set search_path = pg_catalog, analytics
as $$
declare
  today date := (now() at time zone 'America/Sao_Paulo')::date;
  oldest date := (today - make_interval(months => greatest(coalesce(keep_months, 0), 13)))::date;
  today_only text[] := array['daily_visitors', 'daily_candidates', 'daily_promotions'];
  aggregate text;
  deleted bigint;
  removed bigint := 0;
begin
  for aggregate in
    select c.relname from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relnamespace = 'analytics'::regnamespace and c.relkind = 'r'
      and a.attname = 'day' and not a.attisdropped
  loop
    execute format('delete from analytics.%I where day < $1', aggregate)
      using case when aggregate = any(today_only) then today else oldest end;
    get diagnostics deleted = row_count;
    if not aggregate = any(today_only) then
      removed := removed + deleted;
    end if;
  end loop;
  delete from analytics.batches where written_at < now() - interval '2 days';
  return removed;
end
$$;

revoke all on function analytics.record_views(uuid, jsonb) from public;
revoke all on function analytics.purge_aggregates(integer) from public;
revoke all on function analytics.conversion_counts(text, date, date) from public;
grant execute on function analytics.record_views(uuid, jsonb) to analytics_writer;
grant execute on function analytics.purge_aggregates(integer) to analytics_writer;
grant execute on function analytics.conversion_counts(text, date, date) to analytics_reader;

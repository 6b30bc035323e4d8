-- The dimensions are declared once, in lib/analytics/measures.mjs (docs/analytics.md, "Adding a
-- dimension"): the database keeps no list of its own. The CHECKs that repeated the list on
-- daily_counts and named_values go (the collector writes only the declared dimensions, through
-- record_views, as the only writer), and record_views caps a dimension when its row says so
-- (`"capped": true`, lib/analytics/store.ts writeBatch) instead of naming the capped ones. A row
-- that does not say is capped: a cap too many costs a row in '(outras)', one too few lets visitors
-- grow the table. record_views is otherwise 20270220000000_analytics_trust.sql's, unchanged.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.

alter table analytics.daily_counts drop constraint if exists daily_counts_dimension_check;
alter table analytics.named_values drop constraint if exists named_values_dimension_check;

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

revoke all on function analytics.record_views(uuid, jsonb) from public;
grant execute on function analytics.record_views(uuid, jsonb) to analytics_writer;

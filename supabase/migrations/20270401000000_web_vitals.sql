-- The speed visitors' browsers measured (issue 67, docs/analytics.md "Speed as visitors live
-- it"): LCP, INP and CLS of hard-loaded views, kept per São Paulo day and page as histograms over
-- fixed log-spaced buckets (lib/analytics/vitals.mjs: bucket b closes at min × 2^(b/16)), so the
-- report computes a p75 for any period with no row per visit. The collector sends a bucket and a
-- count, never a figure; the buckets' bounds live in vitals.mjs alone.
--
-- Written by analytics.record_vitals as analytics_writer (which still reads nothing), read by
-- analytics_reader, purged with the other aggregates. Idempotent; runs unchanged on Supabase,
-- plain PostgreSQL 15+ and PGlite.
-- Its functions are defined once, in 20270410000000_analytics_generic.sql.

create table if not exists analytics.vitals (
  day date not null,
  page text not null,
  metric text not null check (metric in ('lcp', 'inp', 'cls')),
  bucket smallint not null check (bucket between 0 and 255),
  samples bigint not null default 0 check (samples >= 0),
  primary key (day, page, metric, bucket)
);

revoke all on table analytics.vitals from public;
grant select on table analytics.vitals to analytics_reader;

-- Adds one batch's samples. The batch id (the collector's, as for record_views) is remembered
-- under its own derived id in analytics.batches, so a retried batch adds nothing twice. A row
-- no collector sends (unknown metric, bucket out of range, a count below 1) is skipped.
create or replace function analytics.record_vitals(batch_id uuid, batch jsonb)
returns boolean
language plpgsql
security definer
set search_path = pg_catalog, analytics
as $$
begin
  insert into analytics.batches (id) values (md5('vitals:' || batch_id::text)::uuid)
  on conflict do nothing;
  if not found then
    return false;
  end if;

  insert into analytics.vitals as v (day, page, metric, bucket, samples)
  select (s ->> 'day')::date, left(s ->> 'page', 300), s ->> 'metric',
    (s ->> 'bucket')::smallint, sum((s ->> 'count')::bigint)
  from jsonb_array_elements(batch) as s
  where s ->> 'metric' in ('lcp', 'inp', 'cls')
    and s ->> 'bucket' ~ '^[0-9]{1,3}$' and (s ->> 'bucket')::integer < 256
    and s ->> 'count' ~ '^[0-9]{1,9}$' and (s ->> 'count')::integer > 0
    and s ->> 'page' is not null
  group by 1, 2, 3, 4
  on conflict (day, page, metric, bucket) do update set samples = v.samples + excluded.samples;
  return true;
end
$$;

revoke all on function analytics.record_vitals(uuid, jsonb) from public;
grant execute on function analytics.record_vitals(uuid, jsonb) to analytics_writer;

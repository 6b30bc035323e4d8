-- Daily aggregates are kept AGGREGATE_RETENTION_MONTHS (lib/analytics/retention.ts, 25 months)
-- and then deleted, as the bundled privacy policy promises (issue 36, docs/analytics.md,
-- "Retention"). The server calls analytics.purge_aggregates() at most once a day per instance,
-- from the flusher, as analytics_writer: the writer may delete old days but still read nothing.
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.

-- Deletes the daily_counts of days older than keep_months months before today
-- (America/Sao_Paulo, the days the rows are counted in); returns how many rows went. Never keeps
-- less than 13 months, so a wrong argument cannot wipe the year being compared.
create or replace function analytics.purge_aggregates(keep_months integer)
returns bigint
language plpgsql
security definer
set search_path = pg_catalog, analytics
as $$
declare
  removed bigint;
begin
  delete from analytics.daily_counts
  where day < ((now() at time zone 'America/Sao_Paulo')::date
    - make_interval(months => greatest(coalesce(keep_months, 0), 13)))::date;
  get diagnostics removed = row_count;
  return removed;
end
$$;

revoke all on function analytics.purge_aggregates(integer) from public;
grant execute on function analytics.purge_aggregates(integer) to analytics_writer;

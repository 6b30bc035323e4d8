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
-- Its functions are defined once, in 20270410000000_analytics_generic.sql.

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

revoke all on function analytics.name_value(text, text) from public;
grant execute on function analytics.name_value(text, text) to analytics_writer;

-- Counting that one client cannot skew (issue 49, docs/analytics.md, "Hostile input gets
-- nothing"). The limits are declared in lib/analytics/measures.mjs (CAP_PER_DAY 200,
-- PROMOTE_ADDRESSES 3, PROMOTIONS_PER_DAY 100); tests/integration/analytics-store.test.ts holds
-- this file to them.
--
-- * A value past the day's 200 was promoted to a row of its own once 3 visitors came from it, and
--   a visitor is (address, user agent): one client rotating its user agent promoted anything.
--   Promotion now needs 3 distinct addresses (IPv6 counted per /64). Each view of a capped
--   dimension brings its address's bucket of the day, 0 to 255 (a byte of the HMAC, with the same
--   daily salt, of the address or its /64 alone: lib/analytics/collect.ts); 3 different buckets
--   are 3 different addresses, and one of 256 values identifies nobody. A candidate keeps the set
--   of its buckets (daily_candidates.address_buckets), deleted with its day.
-- * At most 100 candidates a day and dimension are promoted (daily_promotions, counts only, kept
--   until its day ends): past it, a value without a name waits in '(outras)' until tomorrow.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.
-- Its functions are defined once, in 20270410000000_analytics_generic.sql.

alter table analytics.daily_candidates
  add column if not exists address_buckets smallint[] not null default '{}'
  check (cardinality(address_buckets) <= 256);

create table if not exists analytics.daily_promotions (
  day date not null,
  dimension text not null,
  promotions integer not null default 0 check (promotions >= 0),
  primary key (day, dimension)
);
revoke all on table analytics.daily_promotions from public;


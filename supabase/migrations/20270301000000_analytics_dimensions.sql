-- The dimensions are declared once, in lib/analytics/measures.mjs (docs/analytics.md, "Adding a
-- dimension"): the database keeps no list of its own. The CHECKs that repeated the list on
-- daily_counts and named_values go (the collector writes only the declared dimensions, through
-- record_views, as the only writer), and record_views caps a dimension when its row says so
-- (`"capped": true`, lib/analytics/store.ts writeBatch) instead of naming the capped ones. A row
-- that does not say is capped: a cap too many costs a row in '(outras)', one too few lets visitors
-- grow the table.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.
-- Its functions are defined once, in 20270410000000_analytics_generic.sql.

alter table analytics.daily_counts drop constraint if exists daily_counts_dimension_check;
alter table analytics.named_values drop constraint if exists named_values_dimension_check;


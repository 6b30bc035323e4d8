-- Daily aggregates are kept AGGREGATE_RETENTION_MONTHS (lib/analytics/retention.ts, 25 months)
-- and then deleted, as the bundled privacy policy promises (issue 36, docs/analytics.md,
-- "Retention"). The server calls analytics.purge_aggregates() at most once a day per instance,
-- from the flusher, as analytics_writer: the writer may delete old days but still read nothing.
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite.
-- Its functions are defined once, in 20270410000000_analytics_generic.sql.


// How long the visit counting keeps what it keeps, stated once. The bundled privacy policy
// (sanity/dataset/production.ndjson, legalPage-privacidade) promises these same figures and
// tests/unit/legal-pages.test.tsx checks that it does, so change both together.

/** A daily salt is deleted at most this many hours after its day starts. */
export const SALT_MAX_AGE_HOURS = 48

/**
 * Daily aggregates (views, visitors and leads per day, page, campaign and source) are deleted
 * once older than this many months: a year can still be compared with the year before it.
 */
export const AGGREGATE_RETENTION_MONTHS = 25

/**
 * Whether the PostgreSQL-only tests can run (DATABASE_URL is set). A developer without a
 * PostgreSQL skips them; CI starts a throwaway cluster (.ci/run), so there a missing
 * DATABASE_URL fails the file instead of skipping its tests silently, as a missing Redis does.
 * Shared by vitest (tests/integration/helpers/database.ts) and Playwright.
 */
export function hasPostgres(): boolean {
  if (process.env.DATABASE_URL) return true
  if (process.env.CI)
    throw new Error(
      'DATABASE_URL is not set: in CI the PostgreSQL-only tests must run (.ci/run starts a throwaway PostgreSQL cluster).',
    )
  return false
}

// The production builds the end-to-end tests run against. scripts/test.mjs builds each one
// (`next build` with NEXT_DIST_DIR=distDir and `env`), and playwright.config.ts serves each with
// `next start` under the same NEXT_DIST_DIR and `env`. A build of its own never touches a
// developer's .next.
//
// To add a build (for example one whose content comes from a Content Lake test double), add an
// entry here with its own distDir and env, and a `webServer` entry for it in playwright.config.ts.
// Content is fetched at build time, so a double it reads from must already be running while
// scripts/test.mjs builds it.

'use strict'

/**
 * Blank values for the variables that switch the site from its embedded defaults to real
 * services, so a developer's .env files cannot point the tests at a real Sanity project or
 * Supabase database (Next lets the process environment win over .env files, even when empty).
 */
const EMBEDDED_DEFAULTS = {
  NEXT_PUBLIC_SANITY_PROJECT_ID: '',
  SANITY_API_HOST: '',
  SANITY_IMAGE_HOST: '',
  SUPABASE_URL: '',
  SUPABASE_ANON_KEY: '',
}

/**
 * The per-phone/e-mail and per-instance limits of the demo request (lib/security/rate-limit.ts)
 * raised: the specs send the same person's request many times an hour. The per-address limit
 * stays as it is (each test has an address of its own; demo-request-store.spec.ts reaches it).
 * The raised ones are tested elsewhere: in memory by tests/unit/rate-limit.test.ts, on a real
 * redis-server by tests/unit/rate-limit-redis.test.ts, and end to end by
 * tests/e2e/hostile-input.spec.ts, whose server sets low limits of its own ("rate limits").
 */
const E2E_LIMITS = {
  DEMO_RATE_LIMIT_PER_CONTACT_PER_HOUR: '1000',
  DEMO_RATE_LIMIT_GLOBAL_PER_MINUTE: '1000',
  // Every page of every spec sends a visit beacon from 127.0.0.1 (docs/analytics.md); a 429 would
  // be a console error in the specs that allow none. The limit itself: tests/e2e/analytics.spec.ts.
  ANALYTICS_RATE_LIMIT_PER_MINUTE: '100000',
}

/** The lake build's webhook wait for consistency (production: 3000 ms). */
const E2E_CONSISTENCY_DELAY_MS = 1000

/**
 * How often an instance out of touch with Redis re-checks content on the lake build's instances
 * (production: 15 s, lib/redis/connection.mjs), so the Redis fault tests wait for less.
 */
const E2E_FALLBACK_SECONDS = 5

/**
 * Where the end-to-end servers listen: fixed ports from 3100 (E2E_PORT_BASE moves them), so a
 * failing test names a URL one can open. tests/e2e/servers.ts names each offset.
 */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3100)
function portFor(offset) {
  const port = PORT_BASE + offset
  return { port, url: `http://127.0.0.1:${port}` }
}

/** tests/support/content-lake-double.mjs, which the lake build reads its content from. */
const LAKE_DOUBLE = portFor(60)

const BUILDS = {
  /** The site on the bundled NDJSON dataset: what a fresh clone serves. */
  site: {
    distDir: '.next-test',
    env: { ...EMBEDDED_DEFAULTS, ...E2E_LIMITS },
  },
  /**
   * The site on a Sanity project, i.e. on the Content Lake double, with the publish webhook and
   * draft mode configured. SANITY_API_HOST, the secret and the token are read at run time too, so
   * `next start` gets the same env.
   */
  lake: {
    distDir: '.next-lake',
    env: {
      ...EMBEDDED_DEFAULTS,
      ...E2E_LIMITS,
      NEXT_PUBLIC_SANITY_PROJECT_ID: 'testproj',
      SANITY_API_HOST: LAKE_DOUBLE.url,
      // Image URLs on the double too, so the browser never calls the internet (and the CSP
      // names exactly this host).
      SANITY_IMAGE_HOST: LAKE_DOUBLE.url,
      SANITY_REVALIDATE_SECRET: 'test-secret',
      SANITY_API_READ_TOKEN: 'test-read-token',
      // The webhook's wait for the Content Lake to become consistent, 3 s in production
      // (app/api/revalidate/route.ts), lowered so every publish of the suite waits less. The
      // double is consistent at once unless a test asks otherwise (its /__consistency), and
      // tests/e2e/publish-consistency.spec.ts starts its instances with the default 3 s.
      SANITY_WEBHOOK_CONSISTENCY_DELAY_MS: String(E2E_CONSISTENCY_DELAY_MS),
      // Read at run time (the cache handler), so every copy of this build started with this env
      // gets it; tests/unit/redis-fallback-period.test.ts pins production's 15 s.
      REDIS_FALLBACK_REVALIDATE_SECONDS: String(E2E_FALLBACK_SECONDS),
    },
    /**
     * Content is fetched at build time, so scripts/test.mjs starts this double before the build
     * and keeps it for the end-to-end tests. Its accuracy figure differs from the bundled one, so
     * a page showing it cannot be the bundled default. The build folder is removed first: Next
     * would otherwise reuse the fetch cache of an earlier run, whose tests changed the content.
     */
    contentLakeDouble: {
      port: LAKE_DOUBLE.port,
      url: LAKE_DOUBLE.url,
      args: ['--token', 'test-read-token', '--set', 'claim-accuracy.value=97,3%'],
    },
  },
}

module.exports = { BUILDS, E2E_CONSISTENCY_DELAY_MS, E2E_FALLBACK_SECONDS, portFor }

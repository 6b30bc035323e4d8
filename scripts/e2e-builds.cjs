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
  SUPABASE_URL: '',
  SUPABASE_ANON_KEY: '',
}

const BUILDS = {
  /** The site on the bundled NDJSON dataset: what a fresh clone serves. */
  site: {
    distDir: '.next-test',
    env: { ...EMBEDDED_DEFAULTS },
  },
}

module.exports = { BUILDS }

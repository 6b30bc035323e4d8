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

/** Variables that would otherwise leak in from a developer's .env files (process env wins over them). */
const BUNDLED_CONTENT = {
  NEXT_PUBLIC_SANITY_PROJECT_ID: '',
  SANITY_API_HOST: '',
}

const BUILDS = {
  /** The site on the bundled NDJSON dataset: what a fresh clone serves. */
  site: {
    distDir: '.next-test',
    env: { ...BUNDLED_CONTENT },
  },
}

module.exports = { BUILDS }

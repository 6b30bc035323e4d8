import { existsSync } from 'node:fs'
import path from 'node:path'

import { defineConfig } from '@playwright/test'

import { SITE_TIME_ZONE } from './lib/site-time.mjs'
import { BUILDS, portFor } from './scripts/e2e-builds.cjs'
import { chromiumLaunchOptions } from './scripts/ensure-browser.cjs'
import { LEADS_SERVER_DATA_DIR, POSTGREST_ANON_KEY, SERVERS } from './tests/e2e/servers'
import { liveStudioLaunchOptions } from './tests/e2e/studio-fixtures'

// End-to-end tests run against production builds served by `next start`, never `next dev`.
// `npm test` (scripts/test.mjs) makes the builds the selected projects need first (each project
// names them in `metadata.builds`) and says which through E2E_BUILDS; `npx playwright test` on
// its own expects every build to be there already.

const isCI = Boolean(process.env.CI)

type BuildName = keyof typeof BUILDS
/**
 * What a project needs and where it runs: `builds`, the builds of scripts/e2e-builds.cjs its
 * specs use (scripts/test.mjs builds exactly those); `quick`, part of `npm test` (the rest run
 * in `npm run test:all`, which runs every project).
 */
type ProjectNeeds = { builds: BuildName[]; quick?: boolean }
const needs = (metadata: ProjectNeeds) => metadata

/** The builds this run serves: E2E_BUILDS (set by scripts/test.mjs), else every one. */
const builds = (
  process.env.E2E_BUILDS === undefined
    ? Object.keys(BUILDS)
    : process.env.E2E_BUILDS.split(',').filter(Boolean)
) as BuildName[]
for (const name of builds) {
  const build = BUILDS[name]
  if (!build) throw new Error(`E2E_BUILDS names "${name}", which scripts/e2e-builds.cjs lacks.`)
  if (!existsSync(path.join(__dirname, build.distDir, 'BUILD_ID'))) {
    throw new Error(
      `No production build "${name}" in ${build.distDir}. Run \`npm test -- <spec>\`, which ` +
        `builds what the spec needs, or \`NEXT_DIST_DIR=${build.distDir} npx next build\` (with the ` +
        `env of BUILDS.${name} in scripts/e2e-builds.cjs) before \`npx playwright test\`, or name ` +
        `the builds that are there (E2E_BUILDS=site with --project=mobile, desktop or leads).`,
    )
  }
}

/** `next start` of one build on one port, with the build's own environment. */
function nextStart(
  build: (typeof BUILDS)[keyof typeof BUILDS],
  port: number,
  env: Record<string, string> = {},
) {
  return {
    command: `./node_modules/.bin/next start -H 127.0.0.1 -p ${port}`,
    url: `http://127.0.0.1:${port}`,
    env: { NEXT_TELEMETRY_DISABLED: '1', ...build.env, ...env, NEXT_DIST_DIR: build.distDir },
    // A server already on the port could be another checkout or a stale build: never test it.
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
  }
}

/** Specs bound to one particular server and its test double; each has a project of its own. */
const SERVER_BOUND_SPECS = [
  /demo-request-store\.spec\.ts/,
  /editing\.spec\.ts/,
  /lake-images\.spec\.ts/,
  /front\.spec\.ts/,
  /redis-faults\.spec\.ts/,
  /campaign-publishing\.spec\.ts/,
  /publish-consistency\.spec\.ts/,
  /hostile-input\.spec\.ts/,
  /campaign-lifecycle\.spec\.ts/,
  /articles-publishing\.spec\.ts/,
  /scheduled-head\.spec\.ts/,
  /analytics\.spec\.ts/,
  /analytics-reach\.spec\.ts/,
  /web-vitals\.spec\.ts/,
  /studio-performance\.spec\.ts/,
  /studio-day\.spec\.ts/,
  /publish-cost\.spec\.ts/,
  /lead-delivery\.spec\.ts/,
]

/** Tests that only send requests (`{ tag: '@http' }`): the `http` project runs them, once. */
const HTTP_ONLY = /@http/
/**
 * Tests that `npm test` leaves to the full suite (`{ tag: '@full' }`): behaviours beyond one
 * visit of each page kind and the form's stored lead (failure modes, keyboard walks, every
 * anchor). `mobile-full` and `leads-full` run them at the same width, so coverage stays whole.
 */
const FULL_ONLY = /@full/

const PHONE = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: isCI,
  // Never retried, in CI either: a retry turns a flaky test green and hides a real race.
  retries: 0,
  // Two cores, shared with the `next start` processes.
  workers: 2,
  // The list, then every test that did not run, named (scripts/lib/did-not-run-reporter.mjs):
  // a test skipped because another failed is never silently dropped, and fails the run.
  // Every run's timings go to test-results/playwright.json (scripts/test.mjs names one per run).
  reporter: [
    ['list'],
    ['./scripts/lib/did-not-run-reporter.mjs'],
    [
      'json',
      { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? 'test-results/playwright.json' },
    ],
  ],
  // Traces and screenshots of failures; Playwright empties this folder at the start of a run, so
  // it is not test-results/ itself, where scripts/test.mjs writes the run's timings first.
  outputDir: 'test-results/e2e',
  // A guard against hangs, not a speed budget (speed is judged by `npm run bench`): on two
  // loaded cores an axe scan or a keyboard walk takes 20 s, and CI failed at 30 s.
  timeout: 60_000,
  expect: { timeout: 5_000 },

  use: {
    // Tests that need another server take its URL from tests/e2e/servers.ts.
    baseURL: SERVERS.site.url,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    locale: 'pt-BR',
    timezoneId: SITE_TIME_ZONE,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },

  projects: [
    // Playwright hands tests to the workers in this order: the serial projects first (each spec
    // of theirs runs on one worker, for up to minutes), then the short page tests, which fill
    // both workers at the end instead of one long spec running alone there.
    {
      // The Supabase path of the demo request: its spec drives one shared PostgREST double, so it
      // runs once (at 375 px: the form's phone layout), serially, not once per width.
      name: 'leads',
      metadata: needs({ builds: ['site'], quick: true }),
      testMatch: /demo-request-store\.spec\.ts/,
      grepInvert: FULL_ONLY,
      use: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
    },
    {
      // The rest of that spec: after `leads` (one double, one test at a time), never beside it.
      name: 'leads-full',
      metadata: needs({ builds: ['site'] }),
      testMatch: /demo-request-store\.spec\.ts/,
      grep: FULL_ONLY,
      dependencies: ['leads'],
      use: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
    },
    {
      // Everything on the lake build and its Content Lake double (started by scripts/test.mjs):
      // publishing through the webhook, Content Lake images, campaign pages and articles
      // published after the build, visibility windows, the announcement bar and review links
      // (docs/campaigns.md). They share the one server and the double's state, so one spec at a
      // time (one worker for this project), each resetting the double itself first: no spec
      // depends on another having passed, so one failure never keeps the others from running.
      name: 'lake',
      metadata: needs({ builds: ['lake', 'site'] }),
      testMatch: [
        /editing\.spec\.ts/,
        /lake-images\.spec\.ts/,
        /campaign-publishing\.spec\.ts/,
        /articles-publishing\.spec\.ts/,
        /campaign-lifecycle\.spec\.ts/,
        /studio-performance\.spec\.ts/,
      ],
      workers: 1,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // The deployed shape (docs/deploying.md): two instances of the lake build sharing Redis,
      // behind nginx, all started by the spec itself with a Content Lake double of its own.
      name: 'front',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /front\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // Hostile input (issue 27): a copy of the lake build on one instance with Content Lake and
      // PostgREST doubles of its own, all started by the spec, so the queries and the cache
      // growth it counts are its own.
      name: 'hostile',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /hostile-input\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // An editor's day in the Studio (issue 52): a copy of the lake build with a Content Lake
      // double of its own that applies the Studio's writes, streams its listener over HTTPS (the
      // browser maps testproj.api.sanity.io there) and sends the publish webhook, all started by
      // the spec.
      name: 'studio',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /studio-day\.spec\.ts/,
      use: {
        viewport: { width: 1280, height: 800 },
        ignoreHTTPSErrors: true,
        launchOptions: liveStudioLaunchOptions(chromiumLaunchOptions(), portFor(111).port),
      },
    },
    {
      // Where each lead goes (issue 46): a copy of the site build on one instance of its own, with
      // an SMTP server, a webhook receiver and an RD Station double, all started by the spec.
      name: 'lead-delivery',
      metadata: needs({ builds: ['site'] }),
      testMatch: /lead-delivery\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // Visit counts (issue 36): a copy of the lake build behind nginx, with a Content Lake double
      // of its own that knows two Studio users, all started by the spec.
      name: 'analytics',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /analytics\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // Entry pages, contact clicks, reading, campaigns, hostile beacons and the pt-BR CSV
      // (issue 45): a copy of the lake build behind nginx with a Content Lake double of its own,
      // all started by the spec.
      name: 'reach',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /analytics-reach\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // The speed real visitors live (issue 67): web vitals from real Chromium to the report's
      // p75, on a copy of the lake build behind nginx with a Content Lake double of its own, all
      // started by the spec.
      name: 'vitals',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /web-vitals\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // Every Redis fault of docs/deploying.md's "When Redis fails", on two instances of the lake build
      // sharing a real redis-server through a proxy that fails on demand, all started by the spec.
      name: 'redis-faults',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /redis-faults\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // A page cached as a 404 that goes live answers with its own head (issue 38): a copy of the
      // lake build that another server has served from first, with a Content Lake double of its
      // own, all started by the spec.
      name: 'head',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /scheduled-head\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // What one article publish costs with 150 more articles (issue 35): a copy of the lake
      // build with a Content Lake double and a CDN purge double of its own, started by the spec.
      name: 'cost',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /publish-cost\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // Publishes reaching every instance (docs/publishing.md): three instances of the lake
      // build, clocks 3 s apart, a Redis partition of one, a failing Content Lake and a CDN purge
      // double, all started by the spec.
      name: 'publish',
      metadata: needs({ builds: ['lake'] }),
      testMatch: /publish-consistency\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // The tests tagged @http (HTTP_ONLY): plain requests, headers and bodies, which no width
      // changes, so once against the site server, not once per width; no page is ever opened.
      // No browser test, so not in `npm test` (issue 68): test:all runs them.
      name: 'http',
      metadata: needs({ builds: ['site'] }),
      testIgnore: SERVER_BOUND_SPECS,
      grep: HTTP_ONLY,
    },
    {
      name: 'desktop',
      metadata: needs({ builds: ['site'] }),
      // The mobile menu exists below the md breakpoint only.
      testIgnore: [...SERVER_BOUND_SPECS, /mobile-menu\.spec\.ts/],
      grepInvert: HTTP_ONLY,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'mobile',
      metadata: needs({ builds: ['site'], quick: true }),
      testIgnore: SERVER_BOUND_SPECS,
      grepInvert: [HTTP_ONLY, FULL_ONLY],
      // Below Tailwind's md breakpoint (768 px): the navigation collapses into the menu button.
      use: PHONE,
    },
    {
      name: 'mobile-full',
      metadata: needs({ builds: ['site'] }),
      testIgnore: SERVER_BOUND_SPECS,
      grep: FULL_ONLY,
      grepInvert: HTTP_ONLY,
      use: PHONE,
    },
  ],

  // One `next start` per server in tests/e2e/servers.ts, each on its own fixed port, for the
  // builds this run serves. To add one (e.g. the same build with SUPABASE_URL pointed at a
  // PostgREST double), add it to SERVERS and append `nextStart(BUILDS.<build>, SERVERS.<name>.port,
  // {...env})` under its build.
  webServer: [
    ...(builds.includes('site')
      ? [
          nextStart(BUILDS.site, SERVERS.site.port, {
            // Its own embedded store, emptied by scripts/test.mjs, never the developer's .data/leads.
            LEADS_DATA_DIR: '.data/e2e/site',
          }),
          {
            command: `node tests/support/postgrest-double.mjs --host 127.0.0.1 --port ${SERVERS.postgrest.port} --anon-key ${POSTGREST_ANON_KEY}`,
            url: `${SERVERS.postgrest.url}/__health`,
            reuseExistingServer: false,
            timeout: 60_000,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
          },
          nextStart(BUILDS.site, SERVERS.leads.port, {
            LEADS_DATA_DIR: LEADS_SERVER_DATA_DIR,
            // SUPABASE_TIMEOUT_MS is production's 8 s.
            SUPABASE_URL: SERVERS.postgrest.url,
            SUPABASE_ANON_KEY: POSTGREST_ANON_KEY,
          }),
        ]
      : []),
    ...(builds.includes('lake')
      ? [nextStart(BUILDS.lake, SERVERS.lake.port, { LEADS_DATA_DIR: '.data/e2e/lake' })]
      : []),
  ],
})

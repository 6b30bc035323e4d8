// `npm test` and `npm run test:all`, in the order that fails fastest:
//   1. unit tests (vitest), unless Playwright arguments pick what to run
//   2. a Chromium for Playwright, and redis-server and nginx for the deployed-shape tests
//      (installed with apt-get when missing and possible)
//   3. the production builds of scripts/e2e-builds.cjs that the selected Playwright projects
//      name in their `metadata.builds` (playwright.config.ts), never the dev server
//   4. end-to-end tests (Playwright), which serve those builds with `next start`
//
// `npm test`: the projects marked `quick` (every page kind at one width, the demo form's store).
// `npm run test:all` (--all): every project. `npm test -- <Playwright arguments>`: what they pick,
// e.g. `npm test -- tests/e2e/front.spec.ts`, with no unit step and only the builds it needs.
// --rest (CI, after `npm test` in the same checkout): what --all runs that `npm test` did not,
// reusing its builds.
// Exits non-zero as soon as a step fails. A test that did not run (skipped after a failure
// before it, a crash, an interruption) is named at the end and fails the run too
// (scripts/lib/did-not-run-reporter.mjs, in playwright.config.ts). Timings: test-results/
// (steps-<run>.json, vitest.json, playwright-<run>.json).

import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { BUILDS } from './e2e-builds.cjs'
import { ensureChromium } from './ensure-browser.cjs'
import { ensureTools } from './lib/front-stack.cjs'
import { withProjectFilesRestored } from './lib/project-files.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
const results = path.join(root, 'test-results')

const OWN_FLAGS = new Set(['--all', '--rest'])
const cli = process.argv.slice(2)
const playwrightArgs = cli.filter((arg) => !OWN_FLAGS.has(arg))
const run = cli.includes('--rest')
  ? 'rest'
  : cli.includes('--all')
    ? 'all'
    : playwrightArgs.length > 0
      ? 'selected'
      : 'quick'

function spawnStep(command, args, { env = {}, capture = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    })
    let out = ''
    child.stdout?.on('data', (chunk) => (out += chunk))
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(out)
      else
        reject(
          new Error(
            `${path.basename(command)} ${args.join(' ')} failed (${signal ?? `exit ${code}`}).`,
          ),
        )
    })
  })
}

/** Test doubles started here; they outlive their step (the E2E tests use them) and die with us. */
const doubles = []
process.on('exit', () => {
  // SIGKILL: a double holds nothing worth flushing, and one left behind would serve the next
  // run stale content.
  for (const child of doubles) child.kill('SIGKILL')
})

/**
 * The Content Lake double a build reads from (content is fetched at build time, before Playwright
 * starts its web servers), kept running for the end-to-end tests that change its content.
 */
async function startContentLakeDouble({ port, url, args }) {
  // Something already answering there (a double left over by another run) would be built from
  // and tested against instead of ours: refuse rather than test stale content.
  const stale = await fetch(`${url}/__health`).then(
    () => true,
    () => false,
  )
  if (stale) throw new Error(`Port ${port} is already taken (${url}); stop what runs there.`)
  const child = spawn(
    process.execPath,
    [
      'tests/support/content-lake-double.mjs',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      ...args,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  doubles.push(child)
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The Content Lake double exited (${child.exitCode}).`)
    try {
      if ((await fetch(`${url}/__health`)).ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`The Content Lake double did not answer on ${url} within 30 s.`)
}

/**
 * The projects and builds this run needs, from Playwright's own list of the tests the arguments
 * select (so a file, a --project or a --grep all work), and each project's `metadata` in
 * playwright.config.ts: `builds` it serves, `quick` when `npm test` runs it.
 */
async function selection() {
  const out = await spawnStep(
    bin('playwright'),
    ['test', '--list', '--reporter=json', ...playwrightArgs],
    {
      // No build is needed to list, and none is checked.
      env: { E2E_BUILDS: '', PLAYWRIGHT_JSON_OUTPUT_FILE: '', PLAYWRIGHT_JSON_OUTPUT_NAME: '' },
      capture: true,
    },
  )
  // Anything a spec prints while it is loaded comes before the report.
  const listed = JSON.parse(out.slice(out.indexOf('\n{') + 1 || 0))
  const metadata = new Map(
    listed.config.projects.map((project) => [project.name, project.metadata]),
  )
  const withTests = new Set()
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) withTests.add(test.projectName)
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of listed.suites) walk(suite)
  for (const [name, meta] of metadata) {
    if (!Array.isArray(meta?.builds) || meta.builds.some((build) => !BUILDS[build]))
      throw new Error(
        `Project "${name}" in playwright.config.ts must name the builds of scripts/e2e-builds.cjs ` +
          `it serves: metadata: { builds: [...] }.`,
      )
  }
  const projects = [...withTests].filter(
    (name) =>
      run === 'selected' ||
      run === 'all' ||
      (run === 'quick' ? metadata.get(name).quick : !metadata.get(name).quick),
  )
  if (projects.length === 0) throw new Error('No Playwright test matches these arguments.')
  const builds = Object.keys(BUILDS).filter((build) =>
    projects.some((name) => metadata.get(name).builds.includes(build)),
  )
  return { projects, builds }
}

let selected
const steps = [
  ...(run === 'quick' || run === 'all'
    ? [
        [
          'Unit tests (vitest)',
          async () => {
            await spawnStep(bin('vitest'), [
              'run',
              '--reporter=default',
              '--reporter=json',
              '--outputFile.json=test-results/vitest.json',
            ])
          },
        ],
      ]
    : []),
  [
    'Which projects and builds',
    async () => {
      selected = await selection()
      console.log(
        `Projects: ${selected.projects.join(', ')}; builds: ${selected.builds.join(', ')}`,
      )
    },
  ],
  [
    'Browser for the end-to-end tests',
    () => {
      const { executablePath, source } = ensureChromium()
      console.log(`Chromium (${source}): ${executablePath}`)
    },
  ],
  [
    'Redis and nginx for the deployed-shape tests',
    () => {
      console.log(ensureTools())
    },
  ],
  ...Object.entries(BUILDS).map(([name, build]) => [
    `Production build "${name}" into ${build.distDir}`,
    async () => {
      if (!selected.builds.includes(name)) return 'not needed'
      // --rest follows `npm test` in the same checkout: its builds are this commit's. A build
      // from a Content Lake double is made again (the double runs only while we do).
      if (
        run === 'rest' &&
        !build.contentLakeDouble &&
        existsSync(path.join(root, build.distDir, 'BUILD_ID'))
      )
        return "reused (npm test's)"
      if (build.contentLakeDouble) {
        await startContentLakeDouble(build.contentLakeDouble)
        rmSync(path.join(root, build.distDir), { recursive: true, force: true })
      }
      // A build into another distDir rewrites tsconfig.json and next-env.d.ts: restored after.
      await withProjectFilesRestored(root, () =>
        spawnStep(bin('next'), ['build'], {
          env: { ...build.env, NEXT_DIST_DIR: build.distDir },
        }),
      )
    },
  ]),
  [
    'End-to-end tests (Playwright)',
    async () => {
      // The test servers' own embedded lead stores start empty on every run.
      rmSync(path.join(root, '.data', 'e2e'), { recursive: true, force: true })
      const projects =
        run === 'selected' ? [] : selected.projects.map((name) => `--project=${name}`)
      // The rest runs after `npm test` ran the projects it depends on (leads-full on leads).
      if (run === 'rest') projects.push('--no-deps')
      await spawnStep(bin('playwright'), ['test', ...projects, ...playwrightArgs], {
        env: {
          E2E_BUILDS: selected.builds.join(','),
          PLAYWRIGHT_JSON_OUTPUT_FILE: path.join(results, `playwright-${run}.json`),
        },
      })
    },
  ],
]

/** The slowest spec files of this run (project and file), from Playwright's JSON report. */
function slowestSpecs(count = 5) {
  const report = path.join(results, `playwright-${run}.json`)
  if (!existsSync(report)) return []
  const totals = new Map()
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        const key = `${test.projectName} ${spec.file}`
        const ms = test.results.reduce((sum, result) => sum + result.duration, 0)
        totals.set(key, (totals.get(key) ?? 0) + ms)
      }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of JSON.parse(readFileSync(report, 'utf8')).suites) walk(suite)
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, count)
}

const timings = {
  run,
  args: playwrightArgs,
  startedAt: new Date().toISOString(),
  cpus: os.cpus().length,
  loadAverageAtStart: os.loadavg(),
  steps: [],
}
const timingsFile = path.join(results, `steps-${run}.json`)
function saveTimings() {
  mkdirSync(results, { recursive: true })
  writeFileSync(timingsFile, `${JSON.stringify(timings, null, 2)}\n`)
}

const started = Date.now()
for (const [title, step] of steps) {
  const stepStarted = Date.now()
  console.log(`\n▶ ${title}`)
  let note
  try {
    note = await step()
  } catch (error) {
    timings.steps.push({ title, seconds: (Date.now() - stepStarted) / 1000, ok: false })
    saveTimings()
    console.error(`\n✖ ${title}: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  }
  const seconds = (Date.now() - stepStarted) / 1000
  timings.steps.push({ title, seconds, ok: true, ...(note ? { note } : {}) })
  saveTimings()
  console.log(`✔ ${title} (${note ? `${note}, ` : ''}${seconds.toFixed(1)} s)`)
}
timings.seconds = (Date.now() - started) / 1000
timings.loadAverageAtEnd = os.loadavg()
saveTimings()
const slowest = slowestSpecs()
if (slowest.length > 0) {
  console.log('\nSlowest spec files (project, file, seconds of test time):')
  for (const [key, ms] of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)}  ${key}`)
}
console.log(
  `\nAll tests passed in ${timings.seconds.toFixed(0)} s (timings: ${path.relative(root, timingsFile)}).`,
)
// Exit explicitly: the doubles started above are child processes that would otherwise keep this
// process (and CI) waiting forever; the 'exit' handler stops them.
process.exit(0)

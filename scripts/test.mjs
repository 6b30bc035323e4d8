// `npm test`: every test, in the order that fails fastest.
//   1. unit tests (vitest)
//   2. a Chromium for Playwright, and redis-server and nginx for the deployed-shape tests
//      (installed with apt-get when missing and possible)
//   3. each production build in scripts/e2e-builds.cjs (`next build`, never the dev server)
//   4. end-to-end tests (Playwright), which serve those builds with `next start`
// Arguments go to Playwright: `npm test -- --project=mobile tests/e2e/navigation.spec.ts`.
// Exits non-zero as soon as a step fails. A test that did not run (skipped after a failure
// before it, a crash, an interruption) is named at the end and fails the run too
// (scripts/lib/did-not-run-reporter.mjs, in playwright.config.ts).

import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { BUILDS } from './e2e-builds.cjs'
import { ensureChromium } from './ensure-browser.cjs'
import { ensureTools } from './lib/front-stack.cjs'
import { withProjectFilesRestored } from './lib/project-files.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
const playwrightArgs = process.argv.slice(2)

function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    })
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (code === 0) resolve()
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

const steps = [
  ['Unit tests (vitest)', () => run(bin('vitest'), ['run'])],
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
      if (build.contentLakeDouble) {
        await startContentLakeDouble(build.contentLakeDouble)
        rmSync(path.join(root, build.distDir), { recursive: true, force: true })
      }
      // A build into another distDir rewrites tsconfig.json and next-env.d.ts: restored after.
      await withProjectFilesRestored(root, () =>
        run(bin('next'), ['build'], { ...build.env, NEXT_DIST_DIR: build.distDir }),
      )
    },
  ]),
  [
    'End-to-end tests (Playwright)',
    () => {
      // The test servers' own embedded lead stores start empty on every run.
      rmSync(path.join(root, '.data', 'e2e'), { recursive: true, force: true })
      return run(bin('playwright'), ['test', ...playwrightArgs])
    },
  ],
]

const started = Date.now()
for (const [title, step] of steps) {
  const stepStarted = Date.now()
  console.log(`\n▶ ${title}`)
  try {
    await step()
  } catch (error) {
    console.error(`\n✖ ${title}: ${error instanceof Error ? error.message : error}`)
    process.exit(1)
  }
  console.log(`✔ ${title} (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)`)
}
console.log(`\nAll tests passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`)
// Exit explicitly: the doubles started above are child processes that would otherwise keep this
// process (and CI) waiting forever; the 'exit' handler stops them.
process.exit(0)

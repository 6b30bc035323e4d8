// `npm test`: every test, in the order that fails fastest.
//   1. unit tests (vitest)
//   2. a Chromium for Playwright (installed with apt-get when missing and possible)
//   3. each production build in scripts/e2e-builds.cjs (`next build`, never the dev server)
//   4. end-to-end tests (Playwright), which serve those builds with `next start`
// Arguments go to Playwright: `npm test -- --project=mobile tests/e2e/navigation.spec.ts`.
// Exits non-zero as soon as a step fails.

import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { BUILDS } from './e2e-builds.cjs'
import { ensureChromium } from './ensure-browser.cjs'

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

/**
 * `next build` with a distDir other than .next rewrites tsconfig.json (adds `<distDir>/types`
 * to include) and next-env.d.ts (points it at that distDir). Both belong to the developer's
 * setup, not to the test build, so put them back exactly as they were.
 */
async function withProjectFilesRestored(task) {
  const files = ['tsconfig.json', 'next-env.d.ts'].map((name) => {
    const file = path.join(root, name)
    return { file, before: existsSync(file) ? readFileSync(file, 'utf8') : null }
  })
  try {
    await task()
  } finally {
    for (const { file, before } of files) {
      const now = existsSync(file) ? readFileSync(file, 'utf8') : null
      if (now === before) continue
      if (before === null) rmSync(file)
      else writeFileSync(file, before)
    }
  }
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
  ...Object.entries(BUILDS).map(([name, build]) => [
    `Production build "${name}" into ${build.distDir}`,
    () =>
      withProjectFilesRestored(() =>
        run(bin('next'), ['build'], { ...build.env, NEXT_DIST_DIR: build.distDir }),
      ),
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

// Which Chromium the end-to-end tests drive, and how to get one when there is none.
// Used by playwright.config.ts (to launch it) and by scripts/test.mjs (to install it first).
// Run on its own (`node scripts/ensure-browser.cjs`) it makes sure a browser is there and prints its path.
//
// Order: Playwright's own Chromium when `playwright install` has put it on disk, else the
// distribution's /usr/bin/chromium. Playwright cannot download browsers on machines without
// internet access, but Debian's apt can still install `chromium`, so a root Debian machine
// installs it; anywhere else we stop with instructions.

// CommonJS on purpose: Playwright's config loader requires it, and scripts/test.mjs imports it.

'use strict'
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS module */

const { spawnSync } = require('node:child_process')
const { existsSync } = require('node:fs')

const SYSTEM_CHROMIUM = '/usr/bin/chromium'

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0

/** @returns {{ executablePath: string, source: 'playwright' | 'system' } | null} */
function findChromium() {
  let playwrightChromium
  try {
    // Returns where Playwright would install its build, whether or not it is there.
    playwrightChromium = require('playwright-core').chromium.executablePath()
  } catch {
    playwrightChromium = undefined
  }
  if (playwrightChromium && existsSync(playwrightChromium)) {
    return { executablePath: playwrightChromium, source: 'playwright' }
  }
  if (existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, source: 'system' }
  return null
}

/**
 * The machine has no network, so every background fetch Chromium tries (updates, sync, safe
 * browsing lists, QUIC probes) would only add noise and delays. Chromium refuses to start as
 * root with its sandbox on.
 */
function chromiumArgs() {
  return [
    ...(isRoot ? ['--no-sandbox'] : []),
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ]
}

const HOW_TO_GET_CHROMIUM = [
  'No Chromium found for the end-to-end tests. Looked for:',
  "  - Playwright's own Chromium (`npx playwright install chromium`, needs internet access)",
  `  - ${SYSTEM_CHROMIUM} (Debian/Ubuntu: \`sudo apt-get install chromium\`)`,
  'Install either one, then run `npm test` again.',
].join('\n')

/** Launch options for Playwright; throws with instructions when there is no browser. */
function chromiumLaunchOptions() {
  const found = findChromium()
  if (!found) throw new Error(HOW_TO_GET_CHROMIUM)
  return { executablePath: found.executablePath, args: chromiumArgs() }
}

function isDebian() {
  return existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get')
}

function run(command, args) {
  console.log(`$ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}).`)
  }
}

/** Finds a Chromium, installing Debian's package when we are root on Debian and have none. */
function ensureChromium() {
  const found = findChromium()
  if (found) return found
  if (!isRoot || !isDebian()) throw new Error(HOW_TO_GET_CHROMIUM)
  console.log('No Chromium found; installing the Debian package `chromium` with apt-get.')
  run('apt-get', ['update'])
  run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'])
  const installed = findChromium()
  if (!installed) throw new Error(`apt-get installed chromium, but ${SYSTEM_CHROMIUM} is missing.`)
  return installed
}

module.exports = {
  SYSTEM_CHROMIUM,
  HOW_TO_GET_CHROMIUM,
  findChromium,
  chromiumArgs,
  chromiumLaunchOptions,
  ensureChromium,
}

if (require.main === module) {
  try {
    const { executablePath, source } = ensureChromium()
    console.log(`Chromium (${source}): ${executablePath}`)
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}

#!/usr/bin/env node
// `npm run bench`: the speed budgets of every public page kind, judged against a floor (a bare
// Next page) measured in the same run. What it builds, serves and measures, its options, and why
// budgets are relative to the floor: docs/speed.md, "The bench".

import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

import autocannon from 'autocannon'

import { openPglite } from '../../lib/leads/db.mjs'
import { BUILDS } from '../e2e-builds.cjs'
import { chromiumArgs, ensureChromium } from '../ensure-browser.cjs'
import { measureFirstLoadJs } from '../lib/first-load-js.mjs'
import { measurePageWeight, PAGE_WEIGHT_BUDGET } from '../lib/page-weight.mjs'
import { withProjectFilesRestored } from '../lib/project-files.mjs'
import {
  appliedRound,
  appPageFor,
  CALIBRATION_LOADS,
  controlOf,
  experimentComparisons,
  extraHeadersArgs,
  formatTable,
  judge,
  lighthouseLoads,
  METHODS,
  MIN_RUNS,
  pageHeaders,
  pageName,
  PAGES,
  routePathOf,
  servedVariantProblem,
} from './budgets.mjs'
import { firstScreenOnly, hasLazyBlock } from './first-screen.mjs'
import { FLOOR_DIR, frameworkVersions, writeFloorApp } from './floor-app.mjs'
import { benchFront, benchFrontCost, FRONT_MIN_RATIO } from './front.mjs'
import { startHttp2Proxy } from './h2-proxy.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: String(MIN_RUNS) },
    'target-index': { type: 'string', default: String(500) },
    variant: { type: 'string', multiple: true },
    'lighthouse-only': { type: 'boolean', default: false },
    page: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (options.help) {
  console.log(
    'Usage: npm run bench [-- --no-build] [-- --runs N] [-- --target-index N]\n' +
      '                       [-- --page <path>] [-- --variant <distDir>] [-- --lighthouse-only]\n' +
      `  --runs: Lighthouse runs per page and mode (default ${MIN_RUNS}; fewer never pass).\n` +
      `  --page (repeatable): measure only these page kinds (each variant of an experiment's), of ${[...new Set(PAGES.map((p) => p.path))].join(', ')}.\n` +
      '  --variant (repeatable): also serve an existing build of the site (an experiment built with\n' +
      '    NEXT_DIST_DIR=.next-exp next build) and run it in the same interleaved Lighthouse runs.\n' +
      '  Each page measured is judged against its control (the same page cut before its first lazy\n' +
      '  block, no script) and the floor: per round, every page then its control, the floor last.\n' +
      '  --lighthouse-only: skip throughput, the nginx front and the Server Action.',
  )
  process.exit(0)
}
const lighthouseRuns = Number(options.runs)
if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 1) {
  console.error(`--runs must be a positive whole number, not "${options.runs}".`)
  process.exit(2)
}

const targetIndex = Number(options['target-index'])
if (!(targetIndex > 0)) {
  console.error(`--target-index must be a positive number, not "${options['target-index']}".`)
  process.exit(2)
}

/**
 * The phone every machine emulates. Lighthouse slows the CPU by a fixed 4x whatever the host, so
 * a fast machine emulates a fast phone and a slow one a slow phone, and the same commit scored 99
 * on one VM and 77 on another. Instead the bench measures the host's Lighthouse benchmarkIndex in
 * the same run and slows it by host index / target index, so every machine emulates this device.
 * DevTools' own CPU calibration anchors its presets at 1000 (mid tier, a Pixel 5) and 264 (low
 * tier, a Moto G Power 2022):
 * https://github.com/ChromeDevTools/devtools-frontend/blob/main/front_end/panels/mobile_throttling/CalibrationController.ts
 * The entry Androids that drivers and small operators buy in Brazil (Galaxy A0x/A1x, Moto g0x/g2x
 * class) sit between the two; 500 is their geometric middle (√(264 × 1000) ≈ 514). docs/speed.md
 * says more.
 */
const TARGET_DEVICE = {
  name: 'entry-level Android phone (Galaxy A0x / Moto g0x class)',
  benchmarkIndex: targetIndex,
}

const DIST_DIR = '.next-bench'
const OUT_DIR = path.join(root, '.bench')
const LEADS_DIR = path.join(OUT_DIR, 'leads')

/** The page kinds this run measures: all of PAGES, or those named with --page (each variant). */
const pages = options.page
  ? options.page.flatMap((pathname) => {
      const matching = PAGES.filter((p) => p.path === pathname)
      if (matching.length === 0) {
        console.error(
          `--page ${pathname} is not a page kind the bench knows: ${PAGES.map((p) => p.path).join(', ')} (PAGES in scripts/bench/budgets.mjs).`,
        )
        process.exit(2)
      }
      return matching
    })
  : PAGES

const THROUGHPUT = { connections: 50, durationSeconds: 10 }
const SUBMISSIONS = { total: 200, concurrency: 20 }

// Same environment as the test build: bundled content, embedded lead store, whatever a
// developer's .env files say (Next lets the process environment win, even when empty).
const SITE_ENV = { ...BUILDS.site.env, NEXT_TELEMETRY_DISABLED: '1' }

function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env },
    })
    child.on('error', reject)
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`${path.basename(command)} ${args[0]} failed (${signal ?? `exit ${code}`}).`),
          ),
    )
  })
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
  })
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A measurement that fetches from a server just started: a connection reset right after start
 * (seen on a loaded machine) is retried, anything else fails the bench.
 * @template T @param {() => Promise<T>} task @returns {Promise<T>}
 */
async function withRetry(task, attempts = 3) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task()
    } catch (error) {
      const code = /** @type {any} */ (error)?.cause?.code
      if (attempt >= attempts || (code !== 'ECONNRESET' && code !== 'ECONNREFUSED')) throw error
      console.warn(`  (${code}; trying again)`)
      await sleep(1000)
    }
  }
}

/**
 * `next start` of one build, as a direct child whose PID we own.
 * @param {{ name: string, port: number, command?: string, args?: string[], env?: Record<string, string> }} options
 */
async function startServer({ name, port, command = bin('next'), args = [], env = {} }) {
  const log = createWriteStream(path.join(OUT_DIR, `${name}-server.log`))
  const child = spawn(command, ['start', ...args, '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
  })
  child.stdout.pipe(log)
  child.stderr.pipe(log)
  let exited = false
  child.on('exit', () => {
    exited = true
  })
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (exited)
      throw new Error(
        `next start (${name}) exited early; see ${path.relative(root, OUT_DIR)}/${name}-server.log`,
      )
    try {
      const response = await fetch(baseUrl)
      // Read the body: an unread one keeps its pooled connection half-used.
      await response.arrayBuffer()
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`next start (${name}) did not answer within 60 s.`)
    await sleep(250)
  }
  return {
    baseUrl,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
      }),
  }
}

function median(values) {
  const sorted = values.filter((value) => typeof value === 'number').sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

const ALL_CATEGORIES = 'performance,accessibility,best-practices,seo'

const CATEGORY_KEYS = {
  performance: 'performance',
  accessibility: 'accessibility',
  bestPractices: 'best-practices',
  seo: 'seo',
}

/** One Lighthouse run through its CLI, in a Chromium of its own. */
/**
 * @param {{ preset: 'mobile' | 'desktop', method?: 'simulate' | 'devtools', cpuSlowdown?: number,
 *   categories?: string }} settings
 */
async function lighthouseRun(url, settings, name, index, chromePath, headers = {}) {
  const { preset, method = 'simulate', cpuSlowdown, categories = ALL_CATEGORIES } = settings
  const label = preset === 'mobile' ? `${preset}-${method}` : preset
  const output = path.join(OUT_DIR, 'lighthouse', `${name}-${label}-${index}.json`)
  // The proxy's certificate is self-signed for 127.0.0.1.
  const chromeFlags = [
    '--headless=new',
    '--disable-gpu',
    '--allow-insecure-localhost',
    ...chromiumArgs(),
  ]
  if (!chromeFlags.includes('--no-sandbox')) chromeFlags.push('--no-sandbox')
  await run(
    bin('lighthouse'),
    [
      url,
      '--quiet',
      '--output=json',
      `--output-path=${output}`,
      `--chrome-flags=${chromeFlags.join(' ')}`,
      `--only-categories=${categories}`,
      ...(preset === 'desktop' ? ['--preset=desktop'] : []),
      ...(preset === 'mobile' ? [`--throttling-method=${method}`] : []),
      ...(cpuSlowdown ? [`--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`] : []),
      ...extraHeadersArgs(headers),
    ],
    { CHROME_PATH: chromePath },
  )
  const lhr = JSON.parse(readFileSync(output, 'utf8'))
  const origin = new URL(url).origin
  const requests = lhr.audits['network-requests']?.details?.items ?? []
  // Lighthouse's simulated LCP (Lantern) is cut from the unthrottled load it observed: every
  // script that finished downloading before the observed LCP and whose evaluation it cannot place
  // after that paint (an evaluation task under 10 ms is pruned from its graph) is simulated as a
  // download the paint waited for. On loopback the framework's chunks and the first paint finish
  // within the same few tens of ms, so the estimate takes one of two values, run by run. Counted
  // here so the report says which one each median comes from (docs/speed.md).
  // https://github.com/GoogleChrome/lighthouse/blob/main/docs/variability.md and
  // https://github.com/ChromeDevTools/devtools-frontend/blob/main/front_end/models/trace/lantern/metrics/FirstContentfulPaint.ts
  const observedLcp = lhr.audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaint
  const scripts = requests.filter((item) => item.resourceType === 'Script')
  return {
    scores: Object.fromEntries(
      Object.entries(CATEGORY_KEYS).map(([key, id]) => [
        key,
        Math.round((lhr.categories[id]?.score ?? 0) * 100),
      ]),
    ),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    cpuSlowdown: lhr.configSettings?.throttling?.cpuSlowdownMultiplier ?? null,
    lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
    tbtMs: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    // Main-thread style recalculation and layout, the work issue 53 found the floor does not do:
    // reported beside the floor's so a regression shows by itself, not only inside TBT or LCP.
    styleLayoutMs: mainThreadGroupMs(lhr, 'styleLayout'),
    scriptsBeforeLcp:
      typeof observedLcp === 'number'
        ? {
            done: scripts.filter((item) => item.networkEndTime <= observedLcp).length,
            total: scripts.length,
          }
        : null,
    thirdPartyRequests: requests.filter((item) => {
      try {
        const requestUrl = new URL(item.url)
        return /^https?:$/.test(requestUrl.protocol) && requestUrl.origin !== origin
      } catch {
        return false
      }
    }).length,
    // What cost points outside performance, so a miss names its cause.
    findings: Object.entries(CATEGORY_KEYS)
      .filter(([key]) => key !== 'performance')
      .flatMap(([, id]) =>
        (lhr.categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0)
          .map((ref) => lhr.audits[ref.id])
          .filter((audit) => audit && audit.score !== null && audit.score < 1)
          .map((audit) => `${id}: ${audit.id} (${audit.title})`),
      ),
    report: path.relative(root, output),
  }
}

/**
 * Milliseconds of one group of Lighthouse's main-thread work breakdown (`styleLayout`,
 * `scriptEvaluation`, …), or null when the audit did not run.
 * @param {any} lhr
 * @param {string} group
 */
function mainThreadGroupMs(lhr, group) {
  const items = lhr.audits['mainthread-work-breakdown']?.details?.items
  if (!Array.isArray(items)) return null
  return items.filter((item) => item.group === group).reduce((sum, item) => sum + item.duration, 0)
}

/** Medians of a page's runs of one preset, and what cost it points outside performance. */
function summarise(runs) {
  return {
    runs,
    median: {
      benchmarkIndex: median(runs.map((r) => r.benchmarkIndex)),
      scores: Object.fromEntries(
        Object.keys(CATEGORY_KEYS).map((key) => [key, median(runs.map((r) => r.scores[key]))]),
      ),
      lcpMs: median(runs.map((r) => r.lcpMs)),
      tbtMs: median(runs.map((r) => r.tbtMs)),
      cls: median(runs.map((r) => r.cls)),
      styleLayoutMs: median(runs.map((r) => r.styleLayoutMs)),
      thirdPartyRequests: Math.max(...runs.map((r) => r.thirdPartyRequests)),
    },
    // Runs in which most of the page's scripts had finished downloading before the observed LCP:
    // under simulated throttling, the runs whose LCP estimate includes their download.
    scriptsChargedRuns: runs.filter(
      (r) => r.scriptsBeforeLcp && r.scriptsBeforeLcp.done * 2 > r.scriptsBeforeLcp.total,
    ).length,
    findings: [...new Set(runs.flatMap((r) => r.findings))],
  }
}

/**
 * Lighthouse runs of every page for one preset, in rounds of the urls' order (a page, its control
 * under applied throttling, …, the floor), so that whatever else the machine does at some moment
 * weighs on all alike.
 * @param {Record<string, string>} urls page name → URL, in the order of a round
 * @param {Record<string, Record<string, string>>} headers page name → request headers, if any
 */
async function lighthouseInterleaved(urls, settings, chromePath, headers = {}) {
  const label = settings.preset === 'mobile' ? `mobile ${METHODS[settings.method]}` : 'desktop'
  /** @type {Record<string, any[]>} */
  const runs = Object.fromEntries(Object.keys(urls).map((name) => [name, []]))
  for (let index = 1; index <= lighthouseRuns; index += 1) {
    for (const [name, url] of Object.entries(urls)) {
      process.stdout.write(`  Lighthouse ${label} ${name} ${index}/${lighthouseRuns}…`)
      const result = await lighthouseRun(url, settings, name, index, chromePath, headers[name])
      console.log(
        ` performance ${result.scores.performance}, LCP ${Math.round(result.lcpMs)} ms, ` +
          `TBT ${Math.round(result.tbtMs)} ms, CLS ${result.cls.toFixed(3)}` +
          (typeof result.styleLayoutMs === 'number'
            ? `, style & layout ${Math.round(result.styleLayoutMs)} ms`
            : '') +
          (settings.method === 'simulate' && result.scriptsBeforeLcp
            ? ` (scripts done before the observed LCP: ${result.scriptsBeforeLcp.done}/${result.scriptsBeforeLcp.total})`
            : ''),
      )
      runs[name].push(result)
    }
  }
  return Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, summarise(list)]))
}

/**
 * The host's Lighthouse benchmarkIndex (median of three runs, which also warm the servers and
 * Chromium's disk cache of its own binary), and the CPU slowdown that turns this host into the
 * target device.
 */
async function calibrate(url, chromePath) {
  const indexes = []
  for (let index = 1; index <= CALIBRATION_LOADS; index += 1) {
    const result = await lighthouseRun(
      url,
      { preset: 'mobile', method: 'simulate', categories: 'performance' },
      'calibration',
      index,
      chromePath,
    )
    indexes.push(result.benchmarkIndex)
  }
  const hostIndex = median(indexes)
  if (!hostIndex) throw new Error('Lighthouse reported no benchmarkIndex; cannot calibrate.')
  // Never faster than the host: a host slower than the target emulates itself (and says so).
  const cpuSlowdown = Math.max(
    1,
    Math.round((hostIndex / TARGET_DEVICE.benchmarkIndex) * 100) / 100,
  )
  return { target: TARGET_DEVICE, indexes, hostIndex, cpuSlowdown }
}

async function throughput(url) {
  const check = await fetch(url)
  const cache = check.headers.get('x-nextjs-cache')
  const result = await autocannon({
    url,
    connections: THROUGHPUT.connections,
    duration: THROUGHPUT.durationSeconds,
  })
  return {
    cacheHeader: cache,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }
}

/**
 * The action's id, from the build's server reference manifest: the browser sends the same id
 * in the `next-action` header.
 */
function demoActionId() {
  const manifest = JSON.parse(
    readFileSync(path.join(root, DIST_DIR, 'server', 'server-reference-manifest.json'), 'utf8'),
  )
  const entry = Object.entries(manifest.node).find(
    ([, action]) =>
      action.exportedName === 'submitDemoRequest' &&
      action.filename === 'app/actions/demo-request.ts',
  )
  if (!entry) throw new Error('submitDemoRequest is not in the build’s server reference manifest.')
  return entry[0]
}

/**
 * One submission exactly as the form sends it: React encodes the action's arguments
 * (previous state, FormData) as multipart, the FormData's fields prefixed `_1_` and part `0`
 * holding the argument list that refers to them ('$K1').
 */
function submissionBody(index, formToken) {
  const values = {
    name: `Bench Lead ${index}`,
    email: `bench${index}@transportadora.com.br`,
    company: `Transportadora Bench ${index}`,
    phone: `(11) 99${String(index).padStart(3, '0')}-8888`,
    fleetSize: '51-100',
    message: `Bench ${randomUUID()}`,
    // Empty honeypot and a form opened well over the 2 s minimum fill time ago: a person.
    website: '',
    startedAt: String(Date.now() - 5_000),
    // The server's signed render time, as the page carries it: required on every post.
    formToken,
  }
  const body = new FormData()
  for (const [key, value] of Object.entries(values)) body.append(`_1_${key}`, value)
  body.append('0', JSON.stringify([{ status: 'idle' }, '$K1']))
  return body
}

/** The signed render time the home page's form carries (lib/security/form-token.ts). */
async function pageFormToken(baseUrl) {
  const html = await (await fetch(`${baseUrl}/`)).text()
  const token = /name="formToken" value="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error('The home page carries no formToken for the demo form.')
  return token
}

async function serverAction(baseUrl) {
  const actionId = demoActionId()
  const formToken = await pageFormToken(baseUrl)
  const latencies = []
  const outcomes = {}
  let next = 0
  async function worker() {
    while (next < SUBMISSIONS.total) {
      const index = next++
      const started = performance.now()
      const response = await fetch(`${baseUrl}/`, {
        method: 'POST',
        headers: {
          'next-action': actionId,
          accept: 'text/x-component',
          origin: baseUrl,
          // 198.18.0.0/15 is set aside for benchmarks: one client address per submission.
          'x-forwarded-for': `198.18.${Math.floor(index / 250)}.${(index % 250) + 1}`,
        },
        body: submissionBody(index, formToken),
      })
      const text = await response.text()
      latencies.push(performance.now() - started)
      const status = response.ok
        ? (/"status":"(\w+)"/.exec(text)?.[1] ?? 'unreadable')
        : `HTTP ${response.status}`
      outcomes[status] = (outcomes[status] ?? 0) + 1
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: SUBMISSIONS.concurrency }, worker))
  return {
    actionId,
    submissions: SUBMISSIONS.total,
    concurrency: SUBMISSIONS.concurrency,
    accepted: outcomes.success ?? 0,
    outcomes,
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
    wallSeconds: (performance.now() - started) / 1000,
  }
}

/** Rows in each table of the embedded store; read after the server has let go of it. */
async function countRows() {
  const db = await openPglite(LEADS_DIR)
  try {
    const count = async (table) =>
      Number((await db.query(`select count(*)::int as n from public.${table}`)).rows[0]?.n ?? 0)
    return {
      dados_cliente: await count('dados_cliente'),
      chat_messages: await count('chat_messages'),
    }
  } finally {
    await db.close()
  }
}

// ---------------------------------------------------------------------------------------------

const started = Date.now()
const { executablePath: chromePath } = ensureChromium()

const floorDistDir = path.join(FLOOR_DIR, '.next')
// The floor runs its own copy of next, so that it loads its own react (./floor-app.mjs).
const floorBin = path.join(root, FLOOR_DIR, 'node_modules', '.bin', 'next')
const haveBuilds =
  existsSync(path.join(root, DIST_DIR, 'BUILD_ID')) &&
  existsSync(path.join(root, floorDistDir, 'BUILD_ID'))
if (options['no-build'] && haveBuilds) {
  console.log(`▶ Using the existing builds in ${DIST_DIR} and ${floorDistDir}`)
} else {
  console.log(`▶ Production build of the site into ${DIST_DIR}`)
  await withProjectFilesRestored(root, () =>
    run(bin('next'), ['build'], { ...SITE_ENV, NEXT_DIST_DIR: DIST_DIR }),
  )
  const floor = writeFloorApp(root)
  console.log(
    `▶ Production build of the floor into ${floorDistDir} (${Object.entries(floor.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')})`,
  )
  await run(floorBin, ['build', floor.dir], { NEXT_TELEMETRY_DISABLED: '1' })
}

rmSync(OUT_DIR, { recursive: true, force: true })
mkdirSync(path.join(OUT_DIR, 'lighthouse'), { recursive: true })

/** Ends the measuring early, on `--lighthouse-only`. */
class LighthouseOnly extends Error {}
/** Stops the run before measuring: a page kind does not answer. */
class PagesMissing extends Error {}
/** @type {PagesMissing | null} */
let stopped = null

/** Stops everything started below, in reverse order, whatever failed. */
const cleanups = []
async function cleanUp() {
  for (const stop of cleanups.reverse()) await stop().catch(() => {})
}

// Each --variant is another build of the site, measured as `variant`, `variant2`, …
const variants = (options.variant ?? []).map((distDir, index) => ({
  name: index === 0 ? 'variant' : `variant${index + 1}`,
  distDir,
}))
/** @type {{ name: string, distDir: string, path: string }[]} what --variant measured, by page */
const measuredVariants = []
const results = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version },
  framework: frameworkVersions(path.join(root, FLOOR_DIR)),
  builds: { site: DIST_DIR, floor: floorDistDir },
}
try {
  const site = await startServer({
    name: 'site',
    port: await freePort(),
    env: {
      ...SITE_ENV,
      NEXT_DIST_DIR: DIST_DIR,
      LEADS_DATA_DIR: path.relative(root, LEADS_DIR),
      // Every submission below comes from an address of its own, behind one trusted proxy hop;
      // the limit is raised anyway so that the bench measures the action, not the limiter.
      TRUSTED_PROXY_HOPS: '1',
      DEMO_RATE_LIMIT_PER_MINUTE: '1000',
      DEMO_RATE_LIMIT_GLOBAL_PER_MINUTE: '100000',
    },
  })
  cleanups.push(site.stop)
  const floor = await startServer({
    name: 'floor',
    port: await freePort(),
    command: floorBin,
    args: [FLOOR_DIR],
  })
  cleanups.push(floor.stop)
  // What a visitor loads (HTTPS, HTTP/2), the same front for both.
  const siteProxy = await startHttp2Proxy(site.baseUrl)
  cleanups.push(siteProxy.stop)
  const floorProxy = await startHttp2Proxy(floor.baseUrl)
  cleanups.push(floorProxy.stop)
  results.urls = {
    site: `${siteProxy.origin}/`,
    floor: `${floorProxy.origin}/`,
    siteOrigin: `${site.baseUrl}/`,
    floorOrigin: `${floor.baseUrl}/`,
  }
  for (const { name, distDir } of variants) {
    const variant = await startServer({
      name,
      port: await freePort(),
      env: {
        ...SITE_ENV,
        NEXT_DIST_DIR: distDir,
        LEADS_DATA_DIR: path.relative(root, path.join(OUT_DIR, `${name}-leads`)),
      },
    })
    cleanups.push(variant.stop)
    const variantProxy = await startHttp2Proxy(variant.baseUrl)
    cleanups.push(variantProxy.stop)
    results.urls[name] = `${variantProxy.origin}/`
    results.urls[`${name}Origin`] = `${variant.baseUrl}/`
  }

  // Every page kind answers, or the run stops here: a kind left out would pass unseen. A forced
  // variant must be the one served, on the site and on every --variant build.
  const missing = []
  /** @type {Map<string, boolean>} `${origin} ${page id}` → whether the served page has a lazy block */
  const lazyBlocks = new Map()
  for (const page of pages) {
    for (const origin of [site.baseUrl, ...variants.map((v) => results.urls[`${v.name}Origin`])]) {
      const url = new URL(page.path, origin)
      const { status, html } = await withRetry(() =>
        fetch(url, { redirect: 'manual', headers: pageHeaders(page) }).then(async (response) => ({
          status: response.status,
          html: await response.text(),
        })),
      )
      const problem = status === 200 ? servedVariantProblem(page, html) : `answered HTTP ${status}`
      lazyBlocks.set(`${origin} ${page.id}`, hasLazyBlock(html))
      if (problem) missing.push(`${url.origin}: ${pageName(page)} (${page.kind}): ${problem}`)
    }
  }
  if (missing.length > 0) {
    throw new PagesMissing(
      `Every public page kind is measured, and these do not answer 200 (or not as the version forced):\n` +
        missing.map((line) => `  - ${line}`).join('\n') +
        '\nAdd the page (or its bundled content), or change PAGES in scripts/bench/budgets.mjs ' +
        'if the site no longer has that kind of page.',
    )
  }

  console.log('▶ First-load JS and page weight')
  const routes = JSON.parse(
    readFileSync(path.join(root, DIST_DIR, 'app-path-routes-manifest.json'), 'utf8'),
  )
  results.firstLoadJs = {
    floor: await withRetry(() =>
      measureFirstLoadJs({ baseUrl: floor.baseUrl, distDir: path.join(root, floorDistDir) }),
    ),
    pages: {},
  }
  results.pageWeight = { floor: await withRetry(() => measurePageWeight(floor.baseUrl)), pages: {} }
  for (const page of pages) {
    // A variant's HTML comes from its own route (/variante/…), whose manifest lists its chunks.
    const appPage = appPageFor(routes, routePathOf(page))
    if (!appPage) throw new Error(`No app route of ${DIST_DIR} serves ${routePathOf(page)}.`)
    results.firstLoadJs.pages[page.id] = await withRetry(() =>
      measureFirstLoadJs({
        baseUrl: site.baseUrl,
        pagePath: page.path,
        distDir: path.join(root, DIST_DIR),
        appPage,
        headers: pageHeaders(page),
      }),
    )
    results.pageWeight.pages[page.id] = await withRetry(() =>
      measurePageWeight(new URL(page.path, site.baseUrl).href, pageHeaders(page)),
    )
  }
  // The variants' weight too, in results.json only: the budgets judge the site's build.
  results.pageWeight.variants = {}
  for (const { name, distDir } of variants)
    for (const page of pages)
      results.pageWeight.variants[`${distDir} ${pageName(page)}`] = await withRetry(() =>
        measurePageWeight(
          new URL(page.path, results.urls[`${name}Origin`]).href,
          pageHeaders(page),
        ),
      )
  // Lighthouse first, while nothing else loads the machine.
  /** @type {Record<string, string>} Lighthouse page name → URL */
  const lighthousePages = {}
  /** @type {Record<string, Record<string, string>>} Lighthouse page name → forced headers */
  const lighthouseHeaders = {}
  // Each build also serves its pages' controls (first-screen.mjs) through a proxy of its own, the
  // same HTTPS + HTTP/2 front that cuts every page before its first lazy block, without scripts.
  /** @type {Record<string, { controlOrigin: string, origin: string, page: import('./budgets.mjs').BenchPage }>} */
  const measuredFrom = {}
  const siteControlProxy = await startHttp2Proxy(site.baseUrl, { transformHtml: firstScreenOnly })
  cleanups.push(siteControlProxy.stop)
  for (const page of pages) {
    lighthousePages[page.id] = new URL(page.path, siteProxy.origin).href
    lighthouseHeaders[page.id] = pageHeaders(page)
    measuredFrom[page.id] = { controlOrigin: siteControlProxy.origin, origin: site.baseUrl, page }
  }
  // A variant on every page kind measured: a change can weigh differently on each.
  for (const variant of variants) {
    const origin = results.urls[`${variant.name}Origin`]
    const controlProxy = await startHttp2Proxy(origin, { transformHtml: firstScreenOnly })
    cleanups.push(controlProxy.stop)
    for (const page of pages) {
      const name = pages.length === 1 ? variant.name : `${variant.name}-${page.id}`
      lighthousePages[name] = new URL(page.path, results.urls[variant.name]).href
      lighthouseHeaders[name] = pageHeaders(page)
      measuredFrom[name] = { controlOrigin: controlProxy.origin, origin, page }
      measuredVariants.push({ name, distDir: variant.distDir, path: pageName(page) })
    }
  }
  const measuredNames = Object.keys(lighthousePages)
  lighthousePages.floor = results.urls.floor
  // Every measured page's control, under applied throttling only (the budgets that use it are
  // judged there): the same path and headers, from the same build. results.json records each.
  results.controls = {}
  for (const name of measuredNames) {
    const { controlOrigin, origin, page } = measuredFrom[name]
    const lazyBlock = lazyBlocks.get(`${origin} ${page.id}`) ?? null
    results.controls[name] = controlOf(name, page, controlOrigin, lazyBlock)
    lighthouseHeaders[results.controls[name].name] = results.controls[name].headers
  }
  /** @type {Record<string, string>} every Lighthouse name → URL, the controls' too */
  const urlOf = { ...lighthousePages }
  for (const control of Object.values(results.controls)) urlOf[control.name] = control.url
  /** @type {Record<string, string>} the applied rounds: a page, its control, …, the floor */
  const appliedPages = Object.fromEntries(
    appliedRound(measuredNames).map((name) => [name, urlOf[name]]),
  )
  for (const [name, control] of Object.entries(results.controls))
    if (control.lazyBlock === false)
      console.log(`  ${name} has no lazy block: its control is the whole page without scripts.`)
  results.urls.pages = appliedPages
  results.urls.headers = lighthouseHeaders
  const loads = lighthouseLoads(measuredNames.length, lighthouseRuns)
  results.lighthouseLoads = loads
  const plural = (/** @type {number} */ n, /** @type {string} */ word) =>
    `${n} ${word}${n === 1 ? '' : 's'}`
  console.log(
    `▶ Lighthouse: ${loads.total} loads (${loads.calibration} to calibrate, then ` +
      `${plural(lighthouseRuns, 'round')} of ${plural(measuredNames.length, 'page')} and the ` +
      `floor in each mode, under applied throttling each page's control too: ` +
      `${loads.applied} applied, ${loads.simulated} simulated, ${loads.desktop} desktop)`,
  )
  console.log(`  Applied round: ${Object.keys(appliedPages).join(', ')}`)
  console.log(`▶ Calibration: this host's benchmarkIndex against ${TARGET_DEVICE.name}`)
  results.calibration = await calibrate(results.urls.floor, chromePath)
  const { hostIndex, cpuSlowdown } = results.calibration
  console.log(
    `  benchmarkIndex ${Math.round(hostIndex)} (${results.calibration.indexes.map(Math.round).join(', ')}) ` +
      `→ CPU slowdown ${cpuSlowdown}× emulates index ${TARGET_DEVICE.benchmarkIndex}`,
  )
  results.lighthouse = {
    mobile: {
      devtools: await lighthouseInterleaved(
        appliedPages,
        { preset: 'mobile', method: 'devtools', cpuSlowdown, categories: 'performance' },
        chromePath,
        lighthouseHeaders,
      ),
      simulate: await lighthouseInterleaved(
        lighthousePages,
        { preset: 'mobile', method: 'simulate', cpuSlowdown },
        chromePath,
        lighthouseHeaders,
      ),
    },
    desktop: await lighthouseInterleaved(
      lighthousePages,
      { preset: 'desktop' },
      chromePath,
      lighthouseHeaders,
    ),
  }
  if (options['lighthouse-only']) throw new LighthouseOnly()
  // The floor has done its part; stop it so it takes no CPU from what follows.
  await floorProxy.stop()
  await floor.stop()
  console.log(
    `▶ Throughput of / (${THROUGHPUT.connections} connections, ${THROUGHPUT.durationSeconds} s)`,
  )
  results.throughput = { ...THROUGHPUT, ...(await throughput(results.urls.siteOrigin)) }
  console.log('▶ / through nginx (deploy/nginx.conf) against the origin')
  results.front = await benchFront({ originUrl: site.baseUrl, ...THROUGHPUT })
  console.log('▶ What 100 views cost the origin through the front, now and at the last release')
  results.frontCost = await benchFrontCost({ originUrl: site.baseUrl, ...THROUGHPUT })
  console.log(
    `▶ Server Action (${SUBMISSIONS.total} submissions, ${SUBMISSIONS.concurrency} at a time)`,
  )
  results.serverAction = await serverAction(site.baseUrl)
} catch (error) {
  if (error instanceof PagesMissing) stopped = error
  else if (!(error instanceof LighthouseOnly)) throw error
} finally {
  await cleanUp()
}
if (stopped) {
  console.error(`\n✖ ${stopped.message}`)
  process.exit(1)
}
if (results.serverAction) results.serverAction.rows = await countRows()

// ---------------------------------------------------------------------------------------------

const rows = judge({
  results,
  pages,
  variants: measuredVariants,
  pageWeightBudget: PAGE_WEIGHT_BUDGET,
  frontMinRatio: FRONT_MIN_RATIO,
})
results.budgets = rows
const failed = rows.filter((r) => r.pass === false)
const table = formatTable(rows)

writeFileSync(path.join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
console.log(`\n${table}\n`)
const comparisons = experimentComparisons(results.lighthouse.mobile.devtools, pages)
if (comparisons.length > 0)
  console.log(
    `Experiment pages, mobile applied throttling (medians, each judged above):\n${comparisons.map((line) => `  ${line}`).join('\n')}\n`,
  )
for (const [preset, summary] of [
  ...pages.map((page) => [`mobile ${pageName(page)}`, results.lighthouse.mobile.simulate[page.id]]),
  ...pages.map((page) => [`desktop ${pageName(page)}`, results.lighthouse.desktop[page.id]]),
]) {
  const { findings } = summary
  if (findings.length > 0)
    console.log(`Lighthouse ${preset} findings:\n${findings.map((f) => `  - ${f}`).join('\n')}\n`)
}
console.log(
  `Results: ${path.relative(root, path.join(OUT_DIR, 'results.json'))}; Lighthouse reports in ` +
    `${path.relative(root, path.join(OUT_DIR, 'lighthouse'))}/ (${results.lighthouseLoads.total} ` +
    `Lighthouse loads, ${((Date.now() - started) / 1000).toFixed(0)} s).`,
)
if (pages.length < PAGES.length)
  console.warn(
    `Only ${pages.map(pageName).join(', ')} measured (--page); a full run measures every page kind.`,
  )
if (failed.length > 0) {
  console.error(
    `${failed.length} budget${failed.length === 1 ? '' : 's'} missed: ${failed.map((r) => r.name).join('; ')}`,
  )
  process.exitCode = 1
}

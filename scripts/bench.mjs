#!/usr/bin/env node
// `npm run bench`: the performance budgets of the site, measured on this machine.
//
//   1. builds the production site into .next-bench (embedded defaults: bundled content,
//      embedded lead store), unless `-- --no-build` and a build is already there;
//   2. serves it with `next start` on a free port, leads going to a fresh .bench/leads;
//   3. measures first-load JS of `/` (scripts/lib/first-load-js.mjs, the same code as the budget
//      test in `npm test`), Lighthouse 12 mobile and desktop (median of 3 runs each) through an
//      HTTPS + HTTP/2 proxy as in production (scripts/lib/h2-proxy.mjs says why), throughput
//      of `/` from the ISR cache (autocannon, 50 connections, 10 s), and the demo-request Server
//      Action (200 submissions, 20 at a time) with the rows it stored counted afterwards;
//   4. prints one markdown table, writes .bench/results.json, and exits non-zero when a budget
//      is missed.
//
// Timings depend on the machine and on what else runs on it: that is why this is not part of
// `npm test` (which holds the deterministic first-load JS budget). Run it on a quiet machine.
//
//   npm run bench                  # build, then measure
//   npm run bench -- --no-build    # measure the existing .next-bench build
//   npm run bench -- --runs 5      # Lighthouse runs per preset (median; default 3)

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

import { openPglite } from '../lib/leads/db.mjs'
import { BUILDS } from './e2e-builds.cjs'
import { chromiumArgs, ensureChromium } from './ensure-browser.cjs'
import { benchFront, FRONT_MIN_RATIO } from './lib/bench-front.mjs'
import { FIRST_LOAD_JS_BUDGET_BYTES, formatKiB, measureFirstLoadJs } from './lib/first-load-js.mjs'
import { startHttp2Proxy } from './lib/h2-proxy.mjs'
import { withProjectFilesRestored } from './lib/project-files.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (options.help) {
  console.log('Usage: npm run bench [-- --no-build] [-- --runs N]')
  process.exit(0)
}
const lighthouseRuns = Number(options.runs)
if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 1) {
  console.error(`--runs must be a positive whole number, not "${options.runs}".`)
  process.exit(2)
}

const DIST_DIR = '.next-bench'
const OUT_DIR = path.join(root, '.bench')
const LEADS_DIR = path.join(OUT_DIR, 'leads')

const THROUGHPUT = { connections: 50, durationSeconds: 10 }
const SUBMISSIONS = { total: 200, concurrency: 20 }

/** The issue's budgets; `pass` compares a measured value with its limit. */
const LIMITS = {
  firstLoadBytes: FIRST_LOAD_JS_BUDGET_BYTES,
  mobile: {
    performance: 95,
    accessibility: 100,
    bestPractices: 100,
    seo: 100,
    lcpMs: 2000,
    cls: 0.02,
  },
  desktop: { performance: 100, accessibility: 100, bestPractices: 100, seo: 100 },
}

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

/** `next start` of the bench build, as a direct child whose PID we own. */
async function startServer(port) {
  const log = createWriteStream(path.join(OUT_DIR, 'server.log'))
  const child = spawn(bin('next'), ['start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...SITE_ENV,
      NEXT_DIST_DIR: DIST_DIR,
      LEADS_DATA_DIR: path.relative(root, LEADS_DIR),
      // Every submission below comes from an address of its own, behind one trusted proxy hop;
      // the limit is raised anyway so that the bench measures the action, not the limiter.
      TRUSTED_PROXY_HOPS: '1',
      DEMO_RATE_LIMIT_PER_MINUTE: '1000',
    },
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
      throw new Error(`next start exited early; see ${path.relative(root, OUT_DIR)}/server.log`)
    try {
      const response = await fetch(baseUrl)
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('next start did not answer within 60 s.')
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

const CATEGORY_KEYS = {
  performance: 'performance',
  accessibility: 'accessibility',
  bestPractices: 'best-practices',
  seo: 'seo',
}

/** One Lighthouse run through its CLI, in a Chromium of its own. */
async function lighthouseRun(url, preset, index, chromePath) {
  const output = path.join(OUT_DIR, 'lighthouse', `${preset}-${index}.json`)
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
      '--only-categories=performance,accessibility,best-practices,seo',
      ...(preset === 'desktop' ? ['--preset=desktop'] : []),
    ],
    { CHROME_PATH: chromePath },
  )
  const lhr = JSON.parse(readFileSync(output, 'utf8'))
  const origin = new URL(url).origin
  const requests = lhr.audits['network-requests']?.details?.items ?? []
  return {
    scores: Object.fromEntries(
      Object.entries(CATEGORY_KEYS).map(([key, id]) => [
        key,
        Math.round((lhr.categories[id]?.score ?? 0) * 100),
      ]),
    ),
    lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
    tbtMs: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
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

async function lighthouse(url, preset, chromePath) {
  const runs = []
  for (let index = 1; index <= lighthouseRuns; index += 1) {
    process.stdout.write(`  Lighthouse ${preset} ${index}/${lighthouseRuns}…`)
    const result = await lighthouseRun(url, preset, index, chromePath)
    console.log(` performance ${result.scores.performance}, LCP ${Math.round(result.lcpMs)} ms`)
    runs.push(result)
  }
  return {
    runs,
    median: {
      scores: Object.fromEntries(
        Object.keys(CATEGORY_KEYS).map((key) => [key, median(runs.map((r) => r.scores[key]))]),
      ),
      lcpMs: median(runs.map((r) => r.lcpMs)),
      tbtMs: median(runs.map((r) => r.tbtMs)),
      cls: median(runs.map((r) => r.cls)),
      thirdPartyRequests: Math.max(...runs.map((r) => r.thirdPartyRequests)),
    },
    findings: [...new Set(runs.flatMap((r) => r.findings))],
  }
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
function submissionBody(index) {
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
  }
  const body = new FormData()
  for (const [key, value] of Object.entries(values)) body.append(`_1_${key}`, value)
  body.append('0', JSON.stringify([{ status: 'idle' }, '$K1']))
  return body
}

async function serverAction(baseUrl) {
  const actionId = demoActionId()
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
        body: submissionBody(index),
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

if (options['no-build'] && existsSync(path.join(root, DIST_DIR, 'BUILD_ID'))) {
  console.log(`▶ Using the existing build in ${DIST_DIR}`)
} else {
  console.log(`▶ Production build into ${DIST_DIR}`)
  await withProjectFilesRestored(root, () =>
    run(bin('next'), ['build'], { ...SITE_ENV, NEXT_DIST_DIR: DIST_DIR }),
  )
}

rmSync(OUT_DIR, { recursive: true, force: true })
mkdirSync(path.join(OUT_DIR, 'lighthouse'), { recursive: true })

const port = await freePort()
console.log(`▶ next start on port ${port}`)
const server = await startServer(port)
const proxy = await startHttp2Proxy(server.baseUrl).catch(async (error) => {
  await server.stop()
  throw error
})
const results = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version },
  build: DIST_DIR,
  // What a visitor loads (HTTPS, HTTP/2) and the origin behind it.
  url: `${proxy.origin}/`,
  originUrl: `${server.baseUrl}/`,
}
try {
  console.log('▶ First-load JS')
  results.firstLoadJs = await measureFirstLoadJs({
    baseUrl: server.baseUrl,
    distDir: path.join(root, DIST_DIR),
  })
  // Lighthouse first, while nothing else loads the machine.
  console.log('▶ Lighthouse')
  results.lighthouse = {
    mobile: await lighthouse(results.url, 'mobile', chromePath),
    desktop: await lighthouse(results.url, 'desktop', chromePath),
  }
  console.log(
    `▶ Throughput of / (${THROUGHPUT.connections} connections, ${THROUGHPUT.durationSeconds} s)`,
  )
  results.throughput = await throughput(results.originUrl)
  console.log('▶ / through nginx (deploy/nginx.conf) against the origin')
  results.front = await benchFront({ originUrl: server.baseUrl, ...THROUGHPUT })
  console.log(
    `▶ Server Action (${SUBMISSIONS.total} submissions, ${SUBMISSIONS.concurrency} at a time)`,
  )
  results.serverAction = await serverAction(server.baseUrl)
} finally {
  await proxy.stop()
  await server.stop()
}
results.serverAction.rows = await countRows()

// ---------------------------------------------------------------------------------------------

const ms = (value) => `${Math.round(value)} ms`
const seconds = (value) => `${(value / 1000).toFixed(2)} s`
const rows = []
/** @param {string} name @param {string} value @param {string} budget @param {boolean | null} pass */
const row = (name, value, budget = '', pass = null) => rows.push({ name, value, budget, pass })

const js = results.firstLoadJs
row(
  'First-load JS of / (gzip)',
  `${formatKiB(js.totalBytes)} (framework ${formatKiB(js.frameworkBytes)}, site ${formatKiB(js.siteBytes)})`,
  `≤ ${formatKiB(LIMITS.firstLoadBytes)}`,
  js.totalBytes <= LIMITS.firstLoadBytes,
)
for (const preset of /** @type {const} */ (['mobile', 'desktop'])) {
  const { median: m } = results.lighthouse[preset]
  const limits = LIMITS[preset]
  const label = `Lighthouse ${preset}`
  row(
    `${label} performance`,
    String(m.scores.performance),
    `≥ ${limits.performance}`,
    m.scores.performance >= limits.performance,
  )
  row(
    `${label} accessibility`,
    String(m.scores.accessibility),
    `${limits.accessibility}`,
    m.scores.accessibility >= limits.accessibility,
  )
  row(
    `${label} best practices`,
    String(m.scores.bestPractices),
    `${limits.bestPractices}`,
    m.scores.bestPractices >= limits.bestPractices,
  )
  row(`${label} SEO`, String(m.scores.seo), `${limits.seo}`, m.scores.seo >= limits.seo)
  row(
    `${label} LCP`,
    seconds(m.lcpMs),
    'lcpMs' in limits ? `≤ ${seconds(limits.lcpMs)}` : '',
    'lcpMs' in limits ? m.lcpMs <= limits.lcpMs : null,
  )
  row(`${label} TBT`, ms(m.tbtMs))
  row(
    `${label} CLS`,
    m.cls.toFixed(3),
    'cls' in limits ? `≤ ${limits.cls}` : '',
    'cls' in limits ? m.cls <= limits.cls : null,
  )
}
const thirdParty = Math.max(
  results.lighthouse.mobile.median.thirdPartyRequests,
  results.lighthouse.desktop.median.thirdPartyRequests,
)
row('Third-party requests while loading /', String(thirdParty), '0', thirdParty === 0)
const t = results.throughput
row(
  `Throughput of / (ISR cache ${t.cacheHeader ?? '?'}, ${THROUGHPUT.connections} conn., ${THROUGHPUT.durationSeconds} s)`,
  `${Math.round(t.requestsPerSecond)} req/s, p50 ${ms(t.latencyP50Ms)}, p99 ${ms(t.latencyP99Ms)}`,
  'no errors',
  t.non2xx === 0 && t.errors === 0 && t.timeouts === 0,
)
const f = results.front
row(
  '/ through the nginx front vs the origin (same run)',
  f.skipped ??
    `${Math.round(f.frontRps)} vs ${Math.round(f.originRps)} req/s (${f.ratio.toFixed(1)}×)`,
  `≥ ${FRONT_MIN_RATIO}×`,
  f.skipped ? null : f.pass,
)
const a = results.serverAction
row(
  `Server Action (${a.submissions} at ${a.concurrency} at a time)`,
  `p50 ${ms(a.latencyP50Ms)}, p95 ${ms(a.latencyP95Ms)}; ${a.accepted} accepted`,
  `all ${a.submissions} accepted`,
  a.accepted === a.submissions,
)
for (const table of /** @type {const} */ (['dados_cliente', 'chat_messages'])) {
  row(
    `Rows in ${table} afterwards`,
    String(a.rows[table]),
    `= ${a.accepted} accepted`,
    a.rows[table] === a.accepted,
  )
}

results.budgets = rows
const failed = rows.filter((r) => r.pass === false)
const mark = (pass) => (pass === null ? '' : pass ? '✅ pass' : '❌ fail')
const table = [
  '| Measure | Value | Budget | |',
  '| --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.name} | ${r.value} | ${r.budget} | ${mark(r.pass)} |`),
].join('\n')

writeFileSync(path.join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
console.log(`\n${table}\n`)
for (const preset of ['mobile', 'desktop']) {
  const { findings } = results.lighthouse[preset]
  if (findings.length > 0)
    console.log(`Lighthouse ${preset} findings:\n${findings.map((f) => `  - ${f}`).join('\n')}\n`)
}
console.log(
  `Results: ${path.relative(root, path.join(OUT_DIR, 'results.json'))}; Lighthouse reports in ` +
    `${path.relative(root, path.join(OUT_DIR, 'lighthouse'))}/ (${((Date.now() - started) / 1000).toFixed(0)} s).`,
)
if (failed.length > 0) {
  console.error(
    `${failed.length} budget${failed.length === 1 ? '' : 's'} missed: ${failed.map((r) => r.name).join('; ')}`,
  )
  process.exitCode = 1
}

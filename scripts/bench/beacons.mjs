#!/usr/bin/env node
// `npm run bench:beacons`: how many visit beacons one instance takes (docs/analytics.md, "Speed").
// Not a test: a figure to read, on this machine, beside its target (≥ 200 beacons/s with a p99
// ≤ 50 ms on one instance of a 2-core machine, every beacon accepted with the site's headers).
//
//   1. serves an existing production build (default .next-test, `npm test` makes it; or
//      --dist <folder>) with `next start` on a free port, visits going to a fresh embedded store;
//   2. sends POST /api/analytics/view for --seconds (default 30), each beacon from another
//      visitor (X-Forwarded-For varies, so neither the 10 s dedupe nor the per-address limit
//      drops any): first at --rate (default 200) beacons/s, evenly spaced (its p99 is the
//      figure, exit 1 if missed), then flat out with autocannon for --flat-seconds (default 10);
//   3. prints beacons/s, latency percentiles, the server's CPU per beacon and the machine's load
//      of each, then reads the figures back through GET /api/analytics and checks that every
//      beacon answered was counted.
// The machine is shared: read the figure from a run at a low load, or with --priority=-10.

import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

import autocannon from 'autocannon'

import { siteDay } from '../../lib/site-time.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: '.next-test' },
    seconds: { type: 'string', default: '30' },
    'flat-seconds': { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    // The server's nice value (--priority=-10; below 0 needs root): on a machine shared with other
    // work, a negative one measures the server rather than the others' builds. Reported.
    priority: { type: 'string' },
    connections: { type: 'string', default: '20' },
  },
})
const TOKEN = 'bench-read-token-0123456789'
/** Issue 44: one instance of this 2-core machine takes this many beacons/s with this p99. */
const TARGET_RATE = Number(values.rate)
const TARGET_P99_MS = 50
/** What next.config.ts gives every answer: each beacon's answer must carry them too. */
const SITE_HEADERS = [
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'content-security-policy',
]
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

if (!existsSync(path.join(root, values.dist, 'BUILD_ID'))) {
  console.error(`No production build in ${values.dist}: run \`npm test\` (or next build) first.`)
  process.exit(2)
}

const port = await new Promise((resolve) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = /** @type {net.AddressInfo} */ (server.address())
    server.close(() => resolve(free))
  })
})
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vigia-beacons-'))
const child = spawn(
  path.join(root, 'node_modules', '.bin', 'next'),
  ['start', '-H', '127.0.0.1', '-p', String(port)],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      NEXT_DIST_DIR: values.dist,
      NEXT_PUBLIC_SANITY_PROJECT_ID: '',
      SANITY_API_HOST: '',
      SUPABASE_URL: '',
      SUPABASE_ANON_KEY: '',
      REDIS_URL: '',
      LEADS_DATA_DIR: path.join(dataDir, 'leads'),
      ANALYTICS_READ_TOKEN: TOKEN,
      NEXT_MANUAL_SIG_HANDLE: '1',
    },
  },
)
const url = `http://127.0.0.1:${port}`
if (values.priority !== undefined) {
  // The sender too: its latencies count from when each beacon was due.
  // Every thread: Linux keeps a nice value per thread, and V8's GC helpers are threads.
  for (const pid of [child.pid, process.pid]) {
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      os.setPriority(Number(thread), Number(values.priority))
    }
  }
  console.log(`Server and sender at nice ${Number(values.priority)} (--priority)`)
}

/**
 * CPU seconds the server (the `next` process and its children) has used, from /proc: the cost of a
 * beacon that others' load on this shared machine does not change much, unlike its latency.
 */
function serverCpuSeconds(pid = child.pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    // utime and stime, in clock ticks (100 a second on Linux).
    let ticks = Number(fields[11]) + Number(fields[12])
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim()
    for (const each of children ? children.split(' ') : []) ticks += serverCpuSeconds(each) * 100
    return ticks / 100
  } catch {
    return Number.NaN
  }
}

try {
  const deadline = Date.now() + 60_000
  for (;;) {
    const up = await fetch(`${url}/robots.txt`).then(
      (response) => response.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) throw new Error('next start did not answer within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  // Warm up: the embedded database, the route and the known-path list.
  await autocannon({
    url: `${url}/api/analytics/view`,
    method: 'POST',
    connections: 2,
    amount: 50,
    headers: {
      'content-type': 'application/json',
      'user-agent': CHROME,
      'x-forwarded-for': '10.255.0.1',
    },
    body: JSON.stringify({ path: '/' }),
  })
  const day = siteDay(Date.now())
  const counted = async () => {
    const response = await fetch(`${url}/api/analytics?from=${day}&to=${day}&by=day`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    return (await response.json()).rows[0].visits
  }
  await new Promise((resolve) => setTimeout(resolve, 11_000))
  const before = await counted()

  let n = 0
  /** The next beacon: each from another visitor (address), on two pages and 50 campaigns. */
  const nextBeacon = () => {
    n += 1
    return {
      forwardedFor: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      body: JSON.stringify({
        path: n % 3 === 0 ? '/conteudos' : '/',
        utm_campaign: `bench-${n % 50}`,
      }),
    }
  }
  /** Flat out over the connections, with autocannon: the most one instance takes. */
  const flatOut = () =>
    autocannon({
      url: `${url}/api/analytics/view`,
      method: 'POST',
      connections: Number(values.connections),
      duration: Number(values['flat-seconds']),
      headers: { 'content-type': 'application/json', 'user-agent': CHROME },
      requests: [
        {
          setupRequest: (request) => {
            const beacon = nextBeacon()
            return {
              ...request,
              headers: { ...request.headers, 'x-forwarded-for': beacon.forwardedFor },
              body: beacon.body,
            }
          },
        },
      ],
    })
  /**
   * `rate` beacons a second, evenly spaced, over at most `connections` kept-alive sockets; each
   * latency counted from when the beacon was due, so a send held up by a busy server counts
   * against it. Not autocannon's overallRate: it sends each connection's share of a second in
   * one burst at the start of the second, and then corrects its latencies for a 1 ms interval,
   * so its p99 measured the bursts.
   */
  const atRate = async (rate) => {
    // FIFO: every socket in turn. The default (LIFO) left most of them idle past the server's
    // 5 s keep-alive timeout, and one beacon in 6,000 went out on a socket closing under it.
    const agent = new http.Agent({
      keepAlive: true,
      maxSockets: Number(values.connections),
      scheduling: 'fifo',
    })
    const latencies = []
    const counts = { ok: 0, non2xx: 0, errors: 0, bare: 0 }
    const total = rate * Number(values.seconds)
    const start = performance.now()
    const sent = []
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate
      const wait = due - performance.now()
      if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait))
      const beacon = nextBeacon()
      sent.push(
        new Promise((resolve) => {
          const request = http.request(
            `${url}/api/analytics/view`,
            {
              method: 'POST',
              agent,
              headers: {
                'content-type': 'application/json',
                'user-agent': CHROME,
                'x-forwarded-for': beacon.forwardedFor,
              },
            },
            (response) => {
              response.resume()
              response.on('end', () => {
                latencies.push(performance.now() - due)
                if (response.statusCode >= 200 && response.statusCode < 300) counts.ok++
                else counts.non2xx++
                if (SITE_HEADERS.some((name) => !response.headers[name])) counts.bare++
                resolve()
              })
            },
          )
          request.on('error', () => {
            counts.errors++
            resolve()
          })
          request.end(beacon.body)
        }),
      )
    }
    await Promise.all(sent)
    agent.destroy()
    latencies.sort((a, b) => a - b)
    const at = (p) =>
      Math.round(
        latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)],
      )
    return {
      '2xx': counts.ok,
      non2xx: counts.non2xx,
      errors: counts.errors,
      timeouts: 0,
      bare: counts.bare,
      duration: (performance.now() - start) / 1000,
      latency: { p50: at(50), p90: at(90), p99: at(99), max: Math.round(latencies.at(-1) ?? 0) },
    }
  }
  const report = (title, result) => {
    const rate = result['2xx'] / result.duration
    console.log(`${title}: ${result['2xx']} answered 2xx in ${result.duration.toFixed(1)} s`)
    console.log(`  throughput  ${rate.toFixed(0)} beacons/s`)
    console.log(
      `  latency     p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    )
    console.log(
      `  non-2xx     ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`,
    )
    const answered = result['2xx'] + result.non2xx
    console.log(
      `  server CPU  ${((1000 * result.cpu) / answered).toFixed(2)} ms a beacon (${result.cpu.toFixed(1)} s for ${answered})`,
    )
    // The machine is shared: a figure taken while others build says little about the route.
    console.log(
      `  load        ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(', ')} (1, 5, 15 min)`,
    )
    return rate
  }

  // The figure: one instance takes TARGET_RATE beacons/s with p99 <= TARGET_P99_MS. Sent
  // at that rate, so the latency is the server's, not the queue of 20 connections waiting on a
  // saturated server (the flat-out run after it shows that one).
  let cpu = serverCpuSeconds()
  const atTarget = await atRate(TARGET_RATE)
  atTarget.cpu = serverCpuSeconds() - cpu
  const rate = report(`At ${TARGET_RATE} beacons/s offered`, atTarget)
  const met =
    rate >= TARGET_RATE * 0.98 &&
    atTarget.latency.p99 <= TARGET_P99_MS &&
    atTarget.non2xx + atTarget.errors + atTarget.bare === 0
  console.log(`  site headers missing on ${atTarget.bare} answers (${SITE_HEADERS.join(', ')})`)
  console.log(
    `  target      ≥ ${TARGET_RATE} beacons/s with p99 ≤ ${TARGET_P99_MS} ms, all accepted with the site's headers: ${met ? 'met' : 'NOT MET'}`,
  )
  if (!met) process.exitCode = 1
  // Flat out over the same connections: the most it takes, and the latency of a full queue.
  cpu = serverCpuSeconds()
  const flat = await flatOut()
  flat.cpu = serverCpuSeconds() - cpu
  report(`Flat out over ${values.connections} connections`, flat)
  const accepted = atTarget['2xx'] + flat['2xx']

  // Every accepted beacon is in the database once the writes have caught up: at several thousand
  // beacons/s that takes more than one 10 s write (pieces of 250 visitor hashes on PGlite), so the
  // figure is read until it has it all, or has not moved for three writes.
  const lastBeacon = Date.now()
  let added = 0
  for (let still = 0, previous = -1; still < 30 && Date.now() - lastBeacon < 180_000;) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    added = (await counted()) - before
    if (added >= accepted) break
    still = added === previous ? still + 1 : 0
    previous = added
  }
  // Each run stops with up to one request per connection in flight: the server may have
  // counted those without autocannon counting their answers.
  const inFlight = 2 * Number(values.connections)
  const whole = added >= accepted && added <= accepted + inFlight
  console.log(
    `  counted     ${added} for ${accepted} answered (+ at most ${inFlight} in flight at the end): ${whole ? 'none lost' : 'SOME LOST'}, read ${((Date.now() - lastBeacon) / 1000).toFixed(0)} s after the last beacon`,
  )
  if (!whole) process.exitCode = 1
} finally {
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}

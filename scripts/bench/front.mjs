// The "front under load" rows of `npm run bench`: `/` through nginx's proxy cache (deploy/nginx.conf,
// started by scripts/lib/front-stack.cjs) against the origin's own throughput, in the same run,
// on the same machine, with the same load. The budget (issue 12): the front serves at least
// FRONT_MIN_RATIO times what the origin does from its ISR cache. Beside it (issue 66): what 100
// views of `/` and of the experiment's page cost the origin through the front (pages and variant
// questions, counted by an HTTP proxy between the two), and the front's throughput on both, each
// beside the last release's deploy/nginx.conf (its previous version in git).

import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'

import autocannon from 'autocannon'

import { missingTools, startNginx, tempDir } from '../lib/front-stack.cjs'

export const FRONT_MIN_RATIO = 5

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

// As browsers ask for it: every visitor accepts gzip, so that is the rate that matters at both ends.
const VISITOR_HEADERS = { 'accept-encoding': 'gzip, deflate, br' }

async function rps(url, { connections, durationSeconds }) {
  const result = await autocannon({
    url,
    connections,
    duration: durationSeconds,
    headers: VISITOR_HEADERS,
  })
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers under load.`)
  }
  return result.requests.average
}

/**
 * Measures `/` on `originUrl` (a running production server) and then through nginx in front of
 * it. Returns {originRps, frontRps, ratio, pass, minRatio}, or {skipped} naming the package to
 * install when nginx is missing.
 */
export async function benchFront({ originUrl, connections = 50, durationSeconds = 10 }) {
  const missing = missingTools()
  if (missing) return { skipped: missing }
  const origin = new URL(originUrl)
  const dir = tempDir('vigia-bench-front-')
  const front = await startNginx({
    httpsPort: await freePort(),
    httpPort: await freePort(),
    upstreams: [origin.host],
    dir,
  })
  try {
    // Fill the cache before measuring, as a visitor would have.
    await autocannon({ url: `${front.url}/`, connections: 1, amount: 5 })
    const originRps = await rps(`${origin.origin}/`, { connections, durationSeconds })
    const frontRps = await rps(`${front.url}/`, { connections, durationSeconds })
    const ratio = frontRps / originRps
    return { originRps, frontRps, ratio, minRatio: FRONT_MIN_RATIO, pass: ratio >= FRONT_MIN_RATIO }
  } finally {
    await front.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The page with the bundled experiment (PAGES in budgets.mjs). */
export const FRONT_EXPERIMENT_PAGE = '/p/onibus-rodoviarios'
/** 100 views of a page without an experiment cost the origin at most this many requests. */
export const FRONT_MAX_ORIGIN_PER_100 = 5

/**
 * The last release's deploy/nginx.conf: its committed version when the working tree changed it,
 * else the version before the last commit that did. Null outside a git checkout.
 */
export function baselineConf() {
  try {
    const git = (...args) =>
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    const changed = git('status', '--porcelain', '--', 'deploy/nginx.conf').trim() !== ''
    const [latest, previous] = git('log', '-n', '2', '--format=%H', '--', 'deploy/nginx.conf')
      .trim()
      .split('\n')
    const ref = changed ? latest : previous
    return ref ? { ref: ref.slice(0, 7), text: git('show', `${ref}:deploy/nginx.conf`) } : null
  } catch {
    return null
  }
}

/** An HTTP proxy in front of `origin` that counts what reaches it: pages and variant questions. */
async function countingProxy(origin) {
  const counts = { pages: 0, questions: 0 }
  const agent = new http.Agent({ keepAlive: true })
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/experiments/variant')) counts.questions++
    else counts.pages++
    const upstream = http.request(
      {
        host: origin.hostname,
        port: origin.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  const port = await freePort()
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    host: `127.0.0.1:${port}`,
    counts,
    reset: () => Object.assign(counts, { pages: 0, questions: 0 }),
    stop: () =>
      new Promise((resolve) => {
        agent.destroy()
        server.close(resolve)
        server.closeAllConnections()
      }),
  }
}

/**
 * Through a front with `conf` (undefined: the working tree's): the origin requests 100 views of
 * each page cost, after the cache is warm, and the front's throughput on each.
 */
async function frontCost(originUrl, conf, { connections, durationSeconds }) {
  const origin = new URL(originUrl)
  const proxy = await countingProxy(origin)
  const dir = tempDir('vigia-bench-front-cost-')
  const front = await startNginx({
    httpsPort: await freePort(),
    httpPort: await freePort(),
    upstreams: [proxy.host],
    dir,
    ...(conf ? { conf } : {}),
  })
  try {
    /** @type {Record<string, { pages: number, questions: number, rps: number }>} */
    const pages = {}
    for (const page of ['/', FRONT_EXPERIMENT_PAGE]) {
      await autocannon({ url: `${front.url}${page}`, connections: 1, amount: 5 })
      proxy.reset()
      await autocannon({
        url: `${front.url}${page}`,
        connections: 10,
        amount: 100,
        headers: VISITOR_HEADERS,
      })
      const per100 = { ...proxy.counts }
      pages[page] = {
        ...per100,
        rps: await rps(`${front.url}${page}`, { connections, durationSeconds }),
      }
    }
    return pages
  } finally {
    await front.stop()
    await proxy.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * What 100 views cost the origin through the front, and the front's throughput, for `/` and the
 * experiment's page, now and with the last release's deploy/nginx.conf. {skipped} without nginx.
 */
export async function benchFrontCost({ originUrl, connections = 50, durationSeconds = 10 }) {
  const missing = missingTools()
  if (missing) return { skipped: missing }
  const baseline = baselineConf()
  const load = { connections, durationSeconds }
  return {
    now: await frontCost(originUrl, undefined, load),
    baseline: baseline
      ? { ref: baseline.ref, ...(await frontCost(originUrl, baseline.text, load)) }
      : null,
    maxOriginPer100: FRONT_MAX_ORIGIN_PER_100,
  }
}

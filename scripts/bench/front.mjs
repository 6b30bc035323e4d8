// The "front under load" row of `npm run bench`: `/` through nginx's proxy cache (deploy/nginx.conf,
// started by scripts/lib/front-stack.cjs) against the origin's own throughput, in the same run,
// on the same machine, with the same load. The budget (issue 12): the front serves at least
// FRONT_MIN_RATIO times what the origin does from its ISR cache.

import fs from 'node:fs'
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

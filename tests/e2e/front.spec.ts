import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'

import { request } from '@playwright/test'
import { encodeSignatureHeader } from '@sanity/webhook'

import {
  copyBuild,
  skipWithout,
  startContentLakeDouble,
  startInstance,
  startNginx,
  startPostgrestDouble,
  startRedis,
  tempDir,
} from '../../scripts/lib/front-stack.cjs'
import {
  demoForm,
  expectErrorToast,
  expectThankYou,
  fillDemoForm,
  openDemoForm,
  submitButton,
  test,
  expect,
  waitLikeAPerson,
} from './demo-fixtures'
import { BUILDS, portFor } from '../../scripts/e2e-builds.cjs'

/*
 * The site deployed as docs/deploying.md says: two instances of the lake build
 * sharing Redis (REDIS_URL), behind nginx with deploy/nginx.conf. Every part is started here
 * (scripts/lib/front-stack.cjs), with a Content Lake double of its own so that the "lake"
 * project's double is never touched, and leads going to a Supabase (PostgREST) double, as the
 * docs/deploying.md has several instances do. Runs in the Playwright project "front", once, in order.
 * Needs Debian's redis-server and nginx (.ci/run and `npm test` install them where they can);
 * skips naming them otherwise, except in CI, where it fails.
 */

const missing = skipWithout(['redis-server', 'nginx', 'openssl'])
test.skip(Boolean(missing), missing ?? '')
test.describe.configure({ mode: 'serial' })

const PORTS = {
  double: portFor(61).port,
  postgrest: portFor(52).port,
  a: portFor(10).port,
  b: portFor(11).port,
  redis: portFor(70).port,
  https: portFor(71).port,
  http: portFor(72).port,
  // A second nginx with the same deploy/nginx.conf, in front of a stand-in origin that sets
  // cookies (the site never does on a page, so this is the only way to see what nginx does).
  cookieOrigin: portFor(78).port,
  cookieHttps: portFor(79).port,
  cookieHttp: portFor(80).port,
}
const BUILT_FIGURE = '97,3%'
const NEW_FIGURE = '91,7%'
const SECRET = BUILDS.lake.env.SANITY_REVALIDATE_SECRET
const ANON_KEY = 'test-anon-key'

type Running = { url: string; stop: () => Promise<void>; log: () => string }
let dir: string
let build: { distDir: string; remove: () => void }
let lake: Running
let postgrest: Running
let redis: Running
let a: Running
let b: Running
let front: Running & { httpUrl: string }

/** Each instance's output, kept with the test results for a failure's post-mortem. */
function log(name: string): string {
  fs.mkdirSync('test-results', { recursive: true })
  return path.join('test-results', `front-instance-${name}.log`)
}

test.beforeAll(async () => {
  test.setTimeout(180_000)
  build = copyBuild(BUILDS.lake.distDir, 'front')
  dir = tempDir()
  lake = await startContentLakeDouble({
    port: PORTS.double,
    args: ['--token', 'test-read-token', '--set', `claim-accuracy.value=${BUILT_FIGURE}`],
  })
  // Several instances store leads in Supabase (docs/deploying.md), here in its double.
  postgrest = await startPostgrestDouble({ port: PORTS.postgrest, anonKey: ANON_KEY })
  redis = await startRedis({ port: PORTS.redis, dir })
  const env = {
    ...BUILDS.lake.env,
    // Read at run time: this double, not the one the build was made from.
    SANITY_API_HOST: lake.url,
    SANITY_IMAGE_HOST: lake.url,
    REDIS_URL: redis.url,
    DEMO_RATE_LIMIT_PER_MINUTE: '2',
    SUPABASE_URL: postgrest.url,
    SUPABASE_ANON_KEY: ANON_KEY,
  }
  ;[a, b] = await Promise.all([
    startInstance({ distDir: build.distDir, port: PORTS.a, env, logFile: log('a') }),
    startInstance({ distDir: build.distDir, port: PORTS.b, env, logFile: log('b') }),
  ])
  front = await startNginx({
    httpsPort: PORTS.https,
    httpPort: PORTS.http,
    upstreams: [new URL(a.url).host, new URL(b.url).host],
    dir,
  })
})

test.afterAll(async () => {
  await Promise.all([
    front?.stop(),
    a?.stop(),
    b?.stop(),
    redis?.stop(),
    lake?.stop(),
    postgrest?.stop(),
  ])
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
  build?.remove()
})

/**
 * A page as a visitor gets it, on a connection of its own (a kept-alive one could be closed by
 * the server between two polls). nginx uses a certificate of its own making.
 */
async function html(url: string): Promise<string> {
  const context = await request.newContext({ ignoreHTTPSErrors: true })
  try {
    const response = await context.get(url)
    expect(response.status(), url).toBe(200)
    return await response.text()
  } finally {
    await context.dispose()
  }
}

const frontHtml = () => html(`${front.url}/`)

/** A JSON answer, as an uptime monitor gets it through the front. */
async function json(url: string): Promise<unknown> {
  const context = await request.newContext({ ignoreHTTPSErrors: true })
  try {
    const response = await context.get(url)
    expect(response.status(), url).toBe(200)
    expect(response.headers()['x-cache'], 'the front never caches it').toBeUndefined()
    return await response.json()
  } finally {
    await context.dispose()
  }
}

const lakeRequests = async (): Promise<number> =>
  ((await (await fetch(`${lake.url}/__requests`)).json()) as { count: number }).count

test('a publish sent to one instance reaches the other and the front within 10 s, and visitors never reach the Content Lake', async () => {
  test.setTimeout(60_000)
  // Fill both instances' view of the shared cache and nginx's.
  for (const url of [`${a.url}/`, `${b.url}/`]) expect(await html(url)).toContain(BUILT_FIGURE)
  expect(await frontHtml()).toContain(BUILT_FIGURE)
  await new Promise((resolve) => setTimeout(resolve, 1500))

  const before = await lakeRequests()
  for (let i = 0; i < 10; i++) {
    await html(`${a.url}/`)
    await html(`${b.url}/`)
    await frontHtml()
  }
  expect(await lakeRequests(), 'Content Lake requests while visitors load the page').toBe(before)
  expect(await json(`${front.url}/api/health`)).toMatchObject({
    status: 'ok',
    sharedCache: { mode: 'redis', ok: true },
    rateLimiter: { mode: 'redis', ok: true },
  })

  const mutated = await fetch(`${lake.url}/__mutate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      mutations: [{ patch: { id: 'claim-accuracy', set: { value: NEW_FIGURE } } }],
    }),
  })
  expect(mutated.ok).toBe(true)
  const body = JSON.stringify({ _type: 'claim', _id: 'claim-accuracy' })
  const webhook = await fetch(`${a.url}/api/revalidate`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'sanity-webhook-signature': await encodeSignatureHeader(body, Date.now(), SECRET),
    },
    body,
  })
  expect(webhook.status).toBe(200)

  // B learns of the publish within a second (it reads the shared tags once a second), then
  // renders the page itself on its next request, which takes seconds on two loaded cores.
  await expect
    .poll(async () => (await html(`${b.url}/`)).includes(NEW_FIGURE), {
      timeout: 10_000,
      intervals: [250],
      message: 'instance B serves the published figure',
    })
    .toBe(true)
  await expect
    .poll(async () => (await frontHtml()).includes(NEW_FIGURE), {
      timeout: 10_000,
      intervals: [250],
      message: 'the front serves the published figure',
    })
    .toBe(true)
})

async function sendDemoRequest(page: import('@playwright/test').Page, origin: string) {
  const openedAt = await openDemoForm(page, `${origin}/`)
  await fillDemoForm(page)
  await waitLikeAPerson(page, openedAt)
  await submitButton(page).click()
}

test('the demo-request limit is counted across instances', async ({ page }) => {
  test.setTimeout(90_000)
  await sendDemoRequest(page, a.url)
  await expectThankYou(page)
  await sendDemoRequest(page, b.url)
  await expectThankYou(page)
  // The third request from the same address, on the instance that has seen only one.
  await sendDemoRequest(page, a.url)
  await expectErrorToast(page)
  await expect(demoForm(page).getByText(/muitas solicitações em sequência/)).toBeVisible()
})

test('with Redis stopped, the page is still served, the form still accepts a request, and the log says why', async ({
  page,
}) => {
  test.setTimeout(90_000)
  await redis.stop()
  expect(await html(`${b.url}/`)).toContain(NEW_FIGURE)
  expect(await frontHtml()).toContain(NEW_FIGURE)
  await sendDemoRequest(page, b.url)
  await expectThankYou(page)
  expect(b.log()).toMatch(/\[redis\] Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+/)
  // Through the front, the health check says what is degraded (tests/e2e/redis-faults.spec.ts
  // goes through every fault).
  const health = (await json(`${front.url}/api/health`)) as {
    status: string
    sharedCache: { ok: boolean }
  }
  expect(health.status).toBe('degraded')
  expect(health.sharedCache.ok, 'the shared cache is not ok with Redis stopped').toBe(false)
})

test('through the front, a visitor gets the health status and each part’s ok, never the details', async () => {
  const context = await request.newContext({ ignoreHTTPSErrors: true })
  try {
    // nginx appends the address it saw: even a forged loopback entry makes two.
    for (const forged of [undefined, '127.0.0.1', '::1']) {
      const response = await context.get(`${front.url}/api/health`, {
        headers: { 'x-forwarded-for': forged ?? '203.0.113.9' },
      })
      expect(response.status()).toBe(200)
      const body = (await response.json()) as Record<string, Record<string, unknown>>
      expect(Object.keys(body).sort()).toEqual(
        ['leadStore', 'pages', 'rateLimiter', 'sharedCache', 'status'].sort(),
      )
      for (const part of ['pages', 'sharedCache', 'rateLimiter', 'leadStore']) {
        expect(Object.keys(body[part]!), `${part}: ok only`).toEqual(['ok'])
      }
    }
  } finally {
    await context.dispose()
  }
})

test.describe('deploy/nginx.conf in front of an origin that sets cookies', () => {
  let origin: http.Server
  let originRequests = 0
  let cookieFront: Running & { httpUrl: string }

  test.beforeAll(async () => {
    origin = http.createServer((req, res) => {
      originRequests++
      const cached = !req.url?.startsWith('/no-cookie')
      res.writeHead(200, {
        'content-type': req.url?.endsWith('.js') ? 'application/javascript' : 'text/html',
        'cache-control': 'public, s-maxage=3600',
        ...(cached ? { 'set-cookie': `session=visitor-${originRequests}; Path=/; HttpOnly` } : {}),
      })
      res.end(req.method === 'POST' ? 'posted' : `<p>page ${originRequests}</p>`)
    })
    await new Promise<void>((resolve) => origin.listen(PORTS.cookieOrigin, '127.0.0.1', resolve))
    const cookieDir = path.join(dir, 'cookie-front')
    fs.mkdirSync(cookieDir, { recursive: true })
    cookieFront = await startNginx({
      httpsPort: PORTS.cookieHttps,
      httpPort: PORTS.cookieHttp,
      upstreams: [`127.0.0.1:${PORTS.cookieOrigin}`],
      dir: cookieDir,
    })
  })

  test.afterAll(async () => {
    await cookieFront?.stop()
    await new Promise((resolve) => (origin ? origin.close(resolve) : resolve(undefined)))
  })

  test('never stores a response that sets a cookie, and never passes the cookie on from a cached location', async () => {
    const context = await request.newContext({ ignoreHTTPSErrors: true })
    try {
      for (const page of ['/', '/_next/static/chunks/app.js']) {
        for (let i = 0; i < 3; i++) {
          const before = originRequests
          const response = await context.get(`${cookieFront.url}${page}`)
          expect(response.status()).toBe(200)
          expect(response.headers()['set-cookie'], `${page}: no cookie passed on`).toBeUndefined()
          expect(response.headers()['x-cache'], `${page}: never served from the cache`).not.toBe(
            'HIT',
          )
          expect(originRequests, `${page}: each request reaches the origin`).toBe(before + 1)
        }
      }
      // The same front does cache a page without a cookie: the check above can fail.
      await context.get(`${cookieFront.url}/no-cookie`)
      const again = await context.get(`${cookieFront.url}/no-cookie`)
      expect(again.headers()['x-cache']).toBe('HIT')
    } finally {
      await context.dispose()
    }
  })

  test('rate-limits POSTs and the uncached paths per visitor, with 429, and leaves cached pages alone', async () => {
    const context = await request.newContext({ ignoreHTTPSErrors: true })
    try {
      const statuses = async (count: number, send: () => Promise<{ status: () => number }>) =>
        Promise.all(Array.from({ length: count }, async () => (await send()).status()))
      const posts = await statuses(12, () =>
        context.post(`${cookieFront.url}/`, { data: 'x', headers: { 'next-action': 'x' } }),
      )
      expect(posts.filter((status) => status === 429).length, `POSTs: ${posts}`).toBeGreaterThan(0)
      expect(posts.filter((status) => status === 200).length).toBeGreaterThan(0)

      const api = await statuses(40, () => context.get(`${cookieFront.url}/api/health`))
      expect(api.filter((status) => status === 429).length, `API: ${api}`).toBeGreaterThan(0)
      expect(api.filter((status) => status === 200).length).toBeGreaterThanOrEqual(20)

      const pages = await statuses(40, () => context.get(`${cookieFront.url}/no-cookie`))
      expect(pages, 'cached pages are not limited').toEqual(pages.map(() => 200))
    } finally {
      await context.dispose()
    }
  })
})

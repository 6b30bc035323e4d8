import fs from 'node:fs'
import path from 'node:path'

import type { Page } from '@playwright/test'
import { createClient } from 'redis'

import { BUILDS, E2E_FALLBACK_SECONDS, portFor } from '../../scripts/e2e-builds.cjs'
import {
  copyBuild,
  skipWithout,
  startContentLakeDouble,
  startInstance,
  startPostgrestDouble,
  startRedis,
  tempDir,
} from '../../scripts/lib/front-stack.cjs'
import { sanityWebhook } from '../support/sanity-webhook.mjs'
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy'
import {
  OTHER_INSTANCE_MS,
  PUBLISH_PROMISE_MS,
  publishDeadline,
  reachedBy,
  type PublishDeadline,
} from './lake-fixtures'
import { OPERATOR_HEADERS, OPERATOR_SECRET, SERVERS } from './servers'
import {
  expect,
  expectThankYou,
  fillDemoForm,
  openDemoForm,
  submitButton,
  test,
  VALID,
  waitLikeAPerson,
} from './demo-fixtures'

/*
 * Redis faults never take the site down (docs/deploying.md, "When Redis fails"). Two
 * instances of the lake build share a real redis-server through a TCP proxy started here, which
 * can refuse connections or hold every byte back; the Redis itself runs as managed services
 * often do, without keyspace notifications and with CONFIG refused. The instances are started
 * once, while Redis is unreachable, and live through every fault in turn: wrong password, an ACL
 * that refuses a command, a slow Redis, connections refused, a restart that loses the data, a
 * flush. In each, both answer pages in normal time, log one line saying what is wrong, and go
 * back to sharing publishes by themselves once Redis is healthy. Runs in the Playwright project
 * "redis-faults", once, in order. Needs Debian's redis-server; in CI it fails without it.
 */

const missing = skipWithout(['redis-server'])
test.skip(Boolean(missing), missing ?? '')
test.describe.configure({ mode: 'serial' })

const PORTS = {
  a: portFor(20).port,
  b: portFor(21).port,
  postgrest: portFor(51).port,
  double: portFor(62).port,
  redis: portFor(73).port,
  proxy: portFor(74).port,
}
const USER = 'vigia'
const PASSWORD = 'vigia-test-password'
const ANON_KEY = 'test-anon-key'
const SECRET = BUILDS.lake.env.SANITY_REVALIDATE_SECRET
/** Where the site counts each tag's revalidations in Redis (lib/cache/cache-handler.mjs). */
const TAGS_KEY = 'vigia:tag-versions'
/**
 * How often an instance out of touch with Redis re-checks content: the lake build's
 * REDIS_FALLBACK_REVALIDATE_SECONDS (scripts/e2e-builds.cjs; production's 15 s is pinned by
 * tests/unit/redis-fallback-period.test.ts).
 */
const FALLBACK_SECONDS = E2E_FALLBACK_SECONDS
/**
 * The promise, from the moment the webhook is sent (docs/publishing.md): 5 s on the instance
 * that received it; on the other, 1 s more with Redis healthy (its read of the shared versions),
 * or the fallback's 15 s instead of that second while it cannot read them (docs/deploying.md).
 */
const SHARED_PUBLISH_MS = PUBLISH_PROMISE_MS + OTHER_INSTANCE_MS
const FALLBACK_PUBLISH_MS = PUBLISH_PROMISE_MS + FALLBACK_SECONDS * 1000
/**
 * "Within 3 s of normal": normal is the same page from the same build without Redis (the lake
 * project's server, tests/e2e/servers.ts), measured at the same moment on the same machine, so
 * that a loaded machine slows both alike.
 */
const SLACK_MS = 3000

type Running = { url: string; stop: () => Promise<void>; log: () => string }
let dir: string
let build: { distDir: string; remove: () => void }
let lake: Running
let postgrest: Running
let redis: Running
let proxy: TcpProxy
let admin: ReturnType<typeof createClient>
let a: Running
let b: Running

/** Answer times per fault, printed at the end (docs/deploying.md quotes them). */
const timings: Array<{ fault: string; url: string; ms: number }> = []

function startOurRedis() {
  return startRedis({
    port: PORTS.redis,
    dir,
    config: [
      // As many managed services give it: CONFIG refused, so notify-keyspace-events stays off.
      'rename-command CONFIG ""',
      `user ${USER} on >${PASSWORD} ~vigia:* +@all -@dangerous`,
    ],
  })
}

async function connectAdmin() {
  admin = createClient({ url: redis.url })
  admin.on('error', () => {})
  await admin.connect()
}

test.beforeAll(async () => {
  test.setTimeout(180_000)
  build = copyBuild(BUILDS.lake.distDir, 'redis-faults')
  dir = tempDir('vigia-redis-faults-')
  // One by one, each kept as soon as it runs, so that afterAll stops whatever started.
  lake = await startContentLakeDouble({
    port: PORTS.double,
    args: ['--token', 'test-read-token', '--set', 'claim-accuracy.value=88,0%'],
  })
  postgrest = await startPostgrestDouble({ port: PORTS.postgrest, anonKey: ANON_KEY })
  redis = await startOurRedis()
  await connectAdmin()
  // The proxy exists but does not listen yet: the instances start while Redis is unreachable.
  proxy = tcpProxy({ port: PORTS.proxy, target: PORTS.redis })
  const env = {
    ...BUILDS.lake.env,
    SANITY_API_HOST: lake.url,
    SANITY_IMAGE_HOST: lake.url,
    SUPABASE_URL: postgrest.url,
    SUPABASE_ANON_KEY: ANON_KEY,
    REDIS_URL: proxy.url(`${USER}:${PASSWORD}`),
    INTERNAL_API_SECRET: OPERATOR_SECRET,
  }
  fs.mkdirSync('test-results', { recursive: true })
  const start = (name: 'a' | 'b') =>
    startInstance({
      distDir: build.distDir,
      port: PORTS[name],
      env,
      logFile: path.join('test-results', `redis-faults-instance-${name}.log`),
    })
  ;[a, b] = await Promise.all([start('a'), start('b')])
})

test.afterAll(async () => {
  if (timings.length > 0) {
    console.log('Answer times per fault (ms):')
    for (const { fault, url, ms } of timings)
      console.log(`  ${fault.padEnd(22)} ${url.padEnd(44)} ${ms}`)
  }
  await admin?.quit().catch(() => {})
  await proxy?.close()
  await Promise.all([a?.stop(), b?.stop(), redis?.stop(), lake?.stop(), postgrest?.stop()])
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
  build?.remove()
})

async function timed(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000) })
  await response.arrayBuffer()
  return { status: response.status, ms: Math.round(performance.now() - started) }
}

/**
 * Both instances answer the home page, a legal page and the health check with 200, each within
 * SLACK_MS of the same request to a server without Redis.
 */
async function expectServedInTime(fault: string) {
  for (const page of ['/', '/privacidade', '/api/health']) {
    const normal = await timed(`${SERVERS.lake.url}${page}`)
    expect(normal.status).toBe(200)
    timings.push({ fault, url: `normal (no Redis) ${page}`, ms: normal.ms })
    for (const instance of [a, b]) {
      const url = `${instance.url}${page}`
      const { status, ms } = await timed(url)
      timings.push({ fault, url, ms })
      expect(status, url).toBe(200)
      expect(ms, `${url} answered in ${ms} ms, normal ${normal.ms} ms`).toBeLessThan(
        normal.ms + SLACK_MS,
      )
    }
  }
}

type Health = {
  status: string
  pages: { ok: boolean }
  sharedCache: { ok: boolean; mode: string; problem?: string; readAt?: string }
  rateLimiter: { ok: boolean; mode: string; problem?: string }
  leadStore: { ok: boolean; mode: string }
}

async function health(instance: Running): Promise<Health> {
  const response = await fetch(`${instance.url}/api/health`, { headers: OPERATOR_HEADERS })
  expect(response.status).toBe(200)
  expect(response.headers.get('set-cookie')).toBeNull()
  expect(response.headers.get('cache-control')).toContain('no-store')
  return (await response.json()) as Health
}

async function expectHealth(check: (health: Health) => boolean, message: string, timeout = 10_000) {
  for (const instance of [a, b]) {
    let last: Health | undefined
    await expect
      .poll(async () => check((last = await health(instance))), { timeout, message })
      .toBe(true)
      .catch((error: Error) => {
        const which = instance === a ? 'A' : 'B'
        throw new Error(
          `${error.message}\nInstance ${which}'s last health: ${JSON.stringify(last)}`,
        )
      })
  }
}

/** Where each instance's log stands, so that a fault's lines can be told from earlier ones. */
function logMarks() {
  return { a: a.log().length, b: b.log().length }
}

/** The [redis] and [cache] lines each instance logged since `marks`. */
function faultLines(marks: { a: number; b: number }, instance: 'a' | 'b') {
  const log = (instance === 'a' ? a : b).log().slice(marks[instance])
  return log.split('\n').filter((line) => /\[(redis|cache)\]/.test(line))
}

/**
 * Each instance logs exactly these lines (one per pattern, in order) since `marks`: one line per
 * change of state, never one per request.
 */
async function expectLogLines(marks: { a: number; b: number }, patterns: RegExp[]) {
  for (const instance of ['a', 'b'] as const) {
    await expect
      .poll(() => faultLines(marks, instance).length, {
        timeout: 15_000,
        message: `instance ${instance.toUpperCase()} logs ${patterns.length} line(s): ${faultLines(marks, instance).join(' | ')}`,
      })
      .toBeGreaterThanOrEqual(patterns.length)
      .catch(async (error: Error) => {
        // What the instance itself says about its Redis connection and its reads of the shared
        // versions, for telling a silent disconnection from a stalled sync.
        const said = await health(instance === 'a' ? a : b).catch((e: unknown) => String(e))
        throw new Error(`${error.message}\nIts health check: ${JSON.stringify(said)}`)
      })
  }
  for (const instance of ['a', 'b'] as const) {
    const lines = faultLines(marks, instance)
    expect(lines, `instance ${instance.toUpperCase()}'s log`).toHaveLength(patterns.length)
    patterns.forEach((pattern, index) => expect(lines[index]).toMatch(pattern))
  }
}

/** Which change of state a log line reports, for telling a repeated line from a new change. */
function stateOf(line: string): string {
  if (/Cannot reach Redis/.test(line)) return 'unreachable'
  if (/answers again|Connected to Redis/.test(line)) return 'ready'
  return line
}

/**
 * For a restart: Redis closes its connections as it stops, and an instance may reconnect once more
 * before it exits, a real change of state logged as such. So each instance's lines since `marks`
 * start with `expected[0]` and end with the rest of `expected`, with any lines between them each
 * reporting a different state from the line before (never the same line twice in a row).
 */
async function expectStateChanges(marks: { a: number; b: number }, expected: RegExp[]) {
  const [first, ...last] = expected
  for (const instance of ['a', 'b'] as const) {
    const endsAsExpected = () => {
      const lines = faultLines(marks, instance)
      return (
        lines.length >= expected.length &&
        first!.test(lines[0]!) &&
        last.every((pattern, index) => pattern.test(lines[lines.length - last.length + index]!))
      )
    }
    await expect
      .poll(endsAsExpected, {
        timeout: 15_000,
        message: `instance ${instance.toUpperCase()} logs ${expected.join(', ')}: ${faultLines(marks, instance).join(' | ')}`,
      })
      .toBe(true)
    const states = faultLines(marks, instance).map(stateOf)
    states
      .slice(1)
      .forEach((state, index) =>
        expect(state, `instance ${instance.toUpperCase()}'s log repeats a state`).not.toBe(
          states[index],
        ),
      )
  }
}

const claimFigure = async (instance: Running): Promise<string> =>
  (await (await fetch(`${instance.url}/`)).text()).match(/\d\d,\d%/g)?.join(' ') ?? ''

/**
 * An editor publishes a new accuracy figure; Sanity's webhook reaches instance `via`, which
 * answers 200 once Redis has the publish, or 503 (so that Sanity retries) when it cannot tell it.
 */
async function publish(via: Running, figure: string, status = 200): Promise<number> {
  const mutated = await fetch(`${lake.url}/__mutate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      mutations: [{ patch: { id: 'claim-accuracy', set: { value: figure } } }],
    }),
  })
  expect(mutated.ok).toBe(true)
  const delivery = await sanityWebhook({ _type: 'claim', _id: 'claim-accuracy' }, SECRET)
  const sentAt = Date.now()
  const webhook = await fetch(`${via.url}/api/revalidate`, {
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  })
  expect(webhook.status).toBe(status)
  return sentAt
}

/** Until `instance` serves `figure`, failing once `deadline` (from the webhook's sending) passed. */
async function expectFigure(
  instance: Running,
  figure: string,
  deadline: PublishDeadline,
  message: string,
) {
  const took = await reachedBy(
    deadline,
    async () => (await claimFigure(instance)).includes(figure),
    message,
  )
  console.log(`${message}: ${took} ms after the webhook was sent`)
}

const rows = async (table: 'dados_cliente' | 'chat_messages') =>
  ((await (await fetch(`${postgrest.url}/__rows/${table}`)).json()) as unknown[]).length

/** A visitor sends the form on `instance`: thanked, and the lead stored exactly once. */
async function sendDemoRequest(page: Page, instance: Running, fault: string) {
  const before = { leads: await rows('dados_cliente'), messages: await rows('chat_messages') }
  const openedAt = await openDemoForm(page, `${instance.url}/`)
  await fillDemoForm(page, { ...VALID, message: `Pedido durante: ${fault}` })
  await waitLikeAPerson(page, openedAt)
  const started = performance.now()
  await submitButton(page).click()
  await expectThankYou(page)
  timings.push({
    fault,
    url: `${instance.url} demo request`,
    ms: Math.round(performance.now() - started),
  })
  expect(await rows('dados_cliente')).toBe(before.leads + 1)
  expect(await rows('chat_messages')).toBe(before.messages + 1)
}

test('the Redis these tests use has no keyspace notifications and refuses CONFIG', async () => {
  await expect(admin.sendCommand(['CONFIG', 'GET', 'notify-keyspace-events'])).rejects.toThrow(
    /unknown command/i,
  )
})

test('started while Redis is unreachable: pages in normal time, one log line, the form works, and a publish reaches the other instance within the fallback period', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await expectServedInTime('unreachable at start')
  await expectLogLines({ a: 0, b: 0 }, [
    /\[redis\] Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\)\. Pages are still served.*Check that Redis is running/,
  ])
  await expectHealth(
    (h) =>
      h.status === 'degraded' &&
      h.pages.ok &&
      !h.sharedCache.ok &&
      /unreachable/.test(h.sharedCache.problem ?? '') &&
      !h.rateLimiter.ok &&
      h.leadStore.mode === 'supabase',
    'the health check says the shared cache and the rate limit are degraded',
  )
  await sendDemoRequest(page, a, 'unreachable at start')

  // Redis unreachable: A revalidates its own pages but answers 503, so that Sanity retries.
  const sentAt = await publish(a, '88,1%', 503)
  await expectFigure(
    a,
    '88,1%',
    publishDeadline(sentAt),
    'instance A, which got the webhook, serves the figure',
  )
  await expectFigure(
    b,
    '88,1%',
    publishDeadline(sentAt, FALLBACK_PUBLISH_MS),
    `instance B serves it within the ${FALLBACK_SECONDS} s fallback period`,
  )
  await expectServedInTime('unreachable at start')
})

test('Redis refusing the password in REDIS_URL: pages in normal time and one log line', async () => {
  await admin.sendCommand(['ACL', 'SETUSER', USER, 'resetpass', '>another-password'])
  const marks = logMarks()
  await proxy.open()
  await expectLogLines(marks, [
    /\[redis\] Redis at redis:\/\/127\.0\.0\.1:\d+ refused the credentials in REDIS_URL \(WRONGPASS.*Fix the user name and password/,
  ])
  await expectServedInTime('wrong password')
  await expectHealth(
    (h) => h.status === 'degraded' && /credentials/.test(h.sharedCache.problem ?? ''),
    'the health check says Redis refused the credentials',
  )
})

test('Redis taking the password again: both instances share publishes again without a restart, and the one made while Redis was away is in Redis', async () => {
  const marks = logMarks()
  await admin.sendCommand(['ACL', 'SETUSER', USER, 'resetpass', `>${PASSWORD}`])
  await expectLogLines(marks, [/\[redis\] Connected to Redis at redis:\/\/127\.0\.0\.1:\d+/])
  await expectHealth((h) => h.status === 'ok', 'the health check says all is well')
  expect(
    Number(await admin.hGet(TAGS_KEY, 'sanity:claim')),
    'the publish made while Redis was unreachable, counted once it answered',
  ).toBeGreaterThanOrEqual(1)

  const sentAt = await publish(b, '88,2%')
  await expectFigure(
    a,
    '88,2%',
    publishDeadline(sentAt, SHARED_PUBLISH_MS),
    'instance A serves what was published through B',
  )
  await expectServedInTime('healthy')
})

test('an ACL that refuses a command the site needs: pages in normal time, one line, and back once granted', async () => {
  const marks = logMarks()
  await admin.sendCommand(['ACL', 'SETUSER', USER, '-hgetall'])
  await expectLogLines(marks, [
    /\[redis\] Redis at redis:\/\/127\.0\.0\.1:\d+ refused this instance's tags commands \(NOPERM.*Give the user in REDIS_URL/,
  ])
  await expectServedInTime('ACL refuses HGETALL')
  await expectHealth(
    (h) => h.status === 'degraded' && !h.sharedCache.ok && h.rateLimiter.ok,
    'the health check says the shared cache is degraded',
  )
  await admin.sendCommand(['ACL', 'SETUSER', USER, '+hgetall'])
  await expectLogLines(marks, [
    /refused this instance's tags commands/,
    /\[redis\] Redis accepts this instance's tags commands again/,
  ])
  await expectHealth((h) => h.status === 'ok', 'the health check says all is well again')
})

test('a Redis that answers in seconds: pages in normal time, the form works, one line, and back once it is fast', async ({
  page,
}) => {
  test.setTimeout(90_000)
  const marks = logMarks()
  // Every byte held 1.5 s each way: 3 s for a command.
  proxy.setDelay(1500)
  await expectLogLines(marks, [
    /\[redis\] Redis at redis:\/\/127\.0\.0\.1:\d+ did not answer within 1000 ms.*Check the load on the Redis server/,
  ])
  await expectServedInTime('slow (3 s a command)')
  await expectHealth(
    (h) => h.status === 'degraded' && /slower/.test(h.rateLimiter.problem ?? ''),
    'the health check says Redis is slow',
  )
  await sendDemoRequest(page, b, 'slow Redis')
  proxy.setDelay(0)
  await expectLogLines(marks, [/did not answer within/, /\[redis\] Redis at .* answers again/])
  await expectHealth((h) => h.status === 'ok', 'the health check says all is well again')
})

test('connections refused mid-run: pages in normal time, one line, and back once Redis listens again', async () => {
  const marks = logMarks()
  await proxy.close()
  await expectLogLines(marks, [/\[redis\] Cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+/])
  await expectServedInTime('connection refused')
  await expectHealth((h) => h.status === 'degraded', 'the health check says Redis is unreachable')
  await proxy.open()
  await expectLogLines(marks, [/Cannot reach Redis/, /\[redis\] Redis at .* answers again/])
})

test('Redis restarted, its data lost: pages in normal time, the loss noticed, and publishes shared again', async () => {
  const marks = logMarks()
  await admin.quit()
  await redis.stop()
  await expectStateChanges(marks, [/\[redis\] Cannot reach Redis/])
  await expectServedInTime('restarting')
  redis = await startOurRedis()
  await connectAdmin()
  await expectStateChanges(marks, [
    /\[redis\] Cannot reach Redis/,
    /\[redis\] Redis at .* answers again/,
    /\[cache\] The shared publish list in Redis \(vigia:tag-versions\) was gone: Redis restarted without persistence or was flushed/,
  ])

  const sentAt = await publish(a, '88,3%')
  await expectFigure(
    b,
    '88,3%',
    publishDeadline(sentAt, SHARED_PUBLISH_MS),
    'instance B serves what was published through A',
  )
  await expectServedInTime('restarted')
  // Served, but each instance must also be back in touch through Redis, not serving through the
  // 15 s fallback: a client that stalls silently while reconnecting would pass the checks above.
  await expectHealth(
    (h) => h.status === 'ok' && h.sharedCache.ok,
    'both instances read the shared publishes from Redis again',
    20_000,
  )
})

test('Redis flushed mid-run: pages in normal time, one line, and publishes shared again', async () => {
  // Both instances have read the shared publishes as they stand, A's above included (a read is
  // due every second, later on a loaded machine), so that each has a list to find gone.
  const since = Date.now()
  await expectHealth(
    (h) => Date.parse(h.sharedCache.readAt ?? '') > since,
    'both instances read the shared publishes',
  )
  const marks = logMarks()
  await admin.flushAll()
  await expectLogLines(marks, [
    /\[cache\] The shared publish list in Redis \(vigia:tag-versions\) was gone/,
  ])
  await expectServedInTime('flushed')
  const sentAt = await publish(b, '88,4%')
  await expectFigure(
    a,
    '88,4%',
    publishDeadline(sentAt, SHARED_PUBLISH_MS),
    'instance A serves what was published through B',
  )
})

test('through every fault: no unhandled rejection and no stack trace in either log', () => {
  for (const instance of [a, b]) {
    const log = instance.log()
    expect(log).not.toMatch(/unhandled/i)
    expect(log, 'the password in REDIS_URL is never logged').not.toContain(PASSWORD)
    expect(log).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)
  }
})

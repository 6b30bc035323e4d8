// The deployed shape of the site, started from real parts for the tests and the bench: Redis
// (redis-server), several instances of one production build sharing it, and nginx in front with
// deploy/nginx.conf. Every process is a direct child with its own config in a temporary folder,
// on the ports it is given, and is stopped by its PID.
//
// The binaries come from Debian's packages `redis-server` and `nginx` (.ci/run installs both, and
// `npm test` does where it can: ensureTools()). missingTools() names the package to install when
// one is absent; skipWithout() lets a spec skip without it, except in CI, where it fails.

'use strict'

// CommonJS on purpose: Playwright's loader requires it (tests/e2e/front.spec.ts), and the bench
// (an ES module) imports it.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS module */

const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const root = path.resolve(__dirname, '..', '..')

const TOOLS = [
  { bin: 'redis-server', pkg: 'redis-server' },
  { bin: 'nginx', pkg: 'nginx' },
  { bin: 'openssl', pkg: 'openssl' },
  // Instances whose clocks run ahead or behind (tests/e2e/publish-consistency.spec.ts).
  { bin: 'faketime', pkg: 'faketime' },
]

function which(bin) {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/bin'])) {
    const candidate = path.join(dir, bin)
    try {
      fs.accessSync(candidate, fs.constants.X_OK)
      return candidate
    } catch {
      // Not here.
    }
  }
  return undefined
}

/**
 * Why these tools (default: all three) are not here, as a sentence naming the Debian packages to
 * install, or undefined when they all are.
 * @param {string[]} [bins]
 */
function missingTools(bins = TOOLS.map(({ bin }) => bin)) {
  const missing = TOOLS.filter(({ bin }) => bins.includes(bin) && !which(bin))
  if (missing.length === 0) return undefined
  const packages = missing.map(({ pkg }) => pkg).join(' ')
  return (
    `${missing.map(({ bin }) => bin).join(', ')} not found: install ${packages} ` +
    `(Debian: apt-get install ${packages}).`
  )
}

/**
 * For a spec that needs these tools: the reason to skip it on a developer's machine that lacks
 * them, or undefined. In CI (CI set) a missing tool throws instead, so that those tests fail
 * loudly rather than pass by skipping (.ci/run and `npm test` install them where they can).
 * @param {string[]} [bins]
 */
function skipWithout(bins) {
  const missing = missingTools(bins)
  if (missing && process.env.CI) {
    throw new Error(`${missing} CI must run the tests that need it.`)
  }
  return missing
}

/**
 * Before the end-to-end tests: installs redis-server and nginx with apt-get when they are missing
 * and we are root on Debian (as scripts/ensure-browser.cjs does for Chromium), without letting
 * the packages start system services. Elsewhere it says which tests will skip, or (in CI) throws.
 */
function ensureTools() {
  const missing = missingTools()
  if (!missing) return 'redis-server, nginx, openssl and faketime are installed'
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const isDebian = fs.existsSync('/etc/debian_version') && fs.existsSync('/usr/bin/apt-get')
  if (!isRoot || !isDebian) {
    if (process.env.CI) throw new Error(missing)
    return `${missing} The Redis and front tests will skip.`
  }
  const policy = '/usr/sbin/policy-rc.d'
  const hadPolicy = fs.existsSync(policy)
  if (!hadPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 })
  try {
    for (const args of [
      ['update'],
      ['install', '-y', '--no-install-recommends', 'redis-server', 'nginx', 'openssl', 'faketime'],
    ]) {
      const result = spawnSync('apt-get', args, {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      })
      if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed.`)
    }
  } finally {
    if (!hadPolicy) fs.rmSync(policy, { force: true })
  }
  const still = missingTools()
  if (still) throw new Error(still)
  return 'installed redis-server, nginx, openssl and faketime with apt-get'
}

/** A temporary folder of our own, removed by the returned function. */
function tempDir(prefix = 'vigia-front-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  // Readable by nginx's worker processes, which run as another user when we are root.
  fs.chmodSync(dir, 0o755)
  return dir
}

async function waitFor(check, what, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}).`)
    try {
      if (await check()) return
    } catch {
      // Not up yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  // Not left running behind the failure, holding its port.
  child?.kill('SIGKILL')
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s.`)
}

/**
 * Stops a child by its PID; with `group`, the process group it leads (spawned detached), so that
 * the worker `next start` forks goes with it even when the parent is killed before it can pass
 * the signal on.
 */
function stopper(child, { group = false } = {}) {
  const signal = (name) => {
    try {
      if (group) process.kill(-child.pid, name)
      else child.kill(name)
    } catch {
      // Already gone.
    }
  }
  // The forked server, if it outlived its parent, goes the moment the parent exits, whatever
  // ended it: a group signalled later could be another server's, its leader given a reused PID.
  let exited = child.exitCode !== null || child.signalCode !== null
  if (!exited)
    child.once('exit', () => {
      exited = true
      if (group) signal('SIGKILL')
    })
  return () =>
    new Promise((resolve) => {
      if (exited) return resolve()
      const timer = setTimeout(() => signal('SIGKILL'), 5000)
      child.once('exit', () => {
        clearTimeout(timer)
        resolve()
      })
      signal('SIGTERM')
    })
}

/** Collects a child's output in memory and, if given, in a file. */
function capture(child, logFile) {
  const chunks = []
  const out = logFile ? fs.createWriteStream(logFile) : undefined
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk) => {
      chunks.push(chunk)
      out?.write(chunk)
    })
  }
  return () => Buffer.concat(chunks).toString('utf8')
}

/**
 * @typedef {{ url: string, pid: number | undefined, stop: () => Promise<void>, log: () => string }} Running
 */

/**
 * redis-server on 127.0.0.1:port, nothing persisted, otherwise at Redis's defaults (no keyspace
 * notifications: the site needs none). `config` adds lines to its configuration file (users,
 * renamed commands...). Stopped and started again with the same options, it is a restarted Redis.
 * @param {{ port: number, dir: string, config?: string[] }} options
 * @returns {Promise<Running>}
 */
async function startRedis({ port, dir, config = [] }) {
  const confFile = path.join(dir, `redis-${port}.conf`)
  fs.writeFileSync(
    confFile,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      'save ""',
      'appendonly no',
      `dir ${dir}`,
      ...config,
      '',
    ].join('\n'),
  )
  const child = spawn(which('redis-server'), [confFile], { stdio: ['ignore', 'pipe', 'pipe'] })
  const log = capture(child)
  await waitFor(
    async () => log().includes('Ready to accept connections'),
    'redis-server',
    15_000,
    child,
  )
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid, stop: stopper(child), log }
}

/**
 * A private copy of a production build (`<distDir>-<name>`, git-ignored like every .next-*), as
 * it was built, for the instances of one test. Next's ISR cache lives in the build folder:
 * instances of different tests, each with its own Content Lake double, would otherwise read each
 * other's pages. Leaves out the pages and fetch results servers have cached since the build
 * (server/route-cache, cache/), as a fresh deploy has none, and the standalone copy.
 * @param {string} distDir
 * @param {string} name
 * @returns {{ distDir: string, remove: () => void }}
 */
function copyBuild(distDir, name) {
  const copy = `${distDir}-${name}`
  const from = path.join(root, distDir)
  const to = path.join(root, copy)
  fs.rmSync(to, { recursive: true, force: true })
  const { ROUTE_CACHE_DIRECTORY } = require('next/dist/server/lib/route-cache-key')
  const skipped = new Set([
    path.join(from, 'server', ROUTE_CACHE_DIRECTORY),
    path.join(from, 'cache'),
    path.join(from, 'standalone'),
  ])
  fs.cpSync(from, to, { recursive: true, filter: (source) => !skipped.has(source) })
  return { distDir: copy, remove: () => fs.rmSync(to, { recursive: true, force: true }) }
}

/**
 * One instance of a production build (`next start`), with its own environment. `clock` (e.g.
 * "+3s", "-3s") runs it under Debian's faketime: its wall clock (Date.now) that far off, its
 * timers (the monotonic clock) true, as a server whose NTP drifted. Without a LEADS_DATA_DIR in
 * `env`, its embedded stores (leads, visits) go to a temporary folder of its own, removed when it
 * stops: never the developer's .data, nor another instance's (PGlite folders are locked to one
 * process).
 * @param {{ distDir: string, port: number, env?: Record<string, string>, logFile?: string, clock?: string }} options
 * @returns {Promise<Running>}
 */
async function startInstance({ distDir, port, env = {}, logFile, clock }) {
  const dataDir = env.LEADS_DATA_DIR ? undefined : tempDir('vigia-instance-')
  const next = path.join(root, 'node_modules', '.bin', 'next')
  const args = ['start', '-H', '127.0.0.1', '-p', String(port)]
  // faketime execs the command: the PID is the server's own, stopped as any other.
  const [command, commandArgs] = clock
    ? [which('faketime'), ['-f', clock, next, ...args]]
    : [next, args]
  const child = spawn(command, commandArgs, {
    cwd: root,
    // Its own process group, stopped whole (see stopper).
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      ...(clock ? { FAKETIME_DONT_FAKE_MONOTONIC: '1' } : {}),
      ...(dataDir ? { LEADS_DATA_DIR: path.join(dataDir, 'leads') } : {}),
      ...env,
      NEXT_DIST_DIR: distDir,
    },
  })
  const log = capture(child, logFile)
  const url = `http://127.0.0.1:${port}`
  const stop = stopper(child, { group: true })
  let stopping = false
  // A server that dies under a test fails it with "fetch failed": its log says why.
  child.once('exit', (code, signal) => {
    if (stopping) return
    const tail = log().split('\n').slice(-40).join('\n')
    console.error(
      `next start on ${port} (pid ${child.pid}) exited by itself (${signal ?? `exit ${code}`}). Its log ends:\n${tail}`,
    )
  })
  try {
    await waitFor(
      async () => (await fetch(`${url}/robots.txt`)).ok,
      `next start on ${port}`,
      60_000,
      child,
    )
  } catch (error) {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  return {
    url,
    pid: child.pid,
    stop: async () => {
      stopping = true
      await stop()
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
    },
    log,
  }
}

/**
 * Replaces exactly `times` occurrences (one unless told), so that a change to deploy/nginx.conf
 * breaks loudly here.
 */
function replaceOnce(text, from, to, times = 1) {
  const count = text.split(from).length - 1
  if (count !== times)
    throw new Error(
      `deploy/nginx.conf: expected "${from}" ${times} times, found it ${count} times.`,
    )
  return text.split(from).join(to)
}

/**
 * nginx with deploy/nginx.conf as docs/deploying.md has it installed, only its "# set:" lines changed:
 * these upstreams, ports on 127.0.0.1, a cache folder, an access log in `dir` (accessLog) and a
 * self-signed certificate.
 * @param {{ httpsPort: number, httpPort: number, upstreams: string[], dir: string, conf?: string }} options
 * @returns {Promise<Running & { httpUrl: string, accessLog: () => string, errorLog: () => string }>}
 */
async function startNginx({ httpsPort, httpPort, upstreams, dir, conf }) {
  const certFile = path.join(dir, 'cert.pem')
  const keyFile = path.join(dir, 'key.pem')
  const made = spawnSync(
    which('openssl'),
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  )
  if (made.status !== 0) throw new Error('openssl could not make a test certificate.')

  // `conf`: another version of deploy/nginx.conf (the bench compares the last release's).
  let site = conf ?? fs.readFileSync(path.join(root, 'deploy', 'nginx.conf'), 'utf8')
  const serverLine = '    server 127.0.0.1:3000 max_fails=3 fail_timeout=10s;'
  site = replaceOnce(
    site,
    serverLine,
    upstreams.map((u) => serverLine.replace('127.0.0.1:3000', u)).join('\n'),
  )
  // The variant question's own upstream (absent from versions before issue 66).
  const variantLine = '    server 127.0.0.1:3000 max_fails=0 max_conns=64;'
  site = replaceOnce(
    site,
    variantLine,
    upstreams.map((u) => variantLine.replace('127.0.0.1:3000', u)).join('\n'),
    conf === undefined || site.includes(variantLine) ? 1 : 0,
  )
  site = replaceOnce(site, '/var/cache/nginx/vigia', path.join(dir, 'cache'))
  const accessLog = path.join(dir, 'access.log')
  site = replaceOnce(site, '/var/log/nginx/vigia.access.log', accessLog, 2)
  site = replaceOnce(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`)
  site = replaceOnce(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
  site = replaceOnce(site, '/etc/ssl/vigia/fullchain.pem', certFile)
  site = replaceOnce(site, '/etc/ssl/vigia/privkey.pem', keyFile)

  for (const sub of ['cache', 'tmp']) {
    fs.mkdirSync(path.join(dir, sub), { recursive: true })
    fs.chmodSync(path.join(dir, sub), 0o777)
  }
  const tmp = path.join(dir, 'tmp')
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const main = [
    'daemon off;',
    // As root, nginx's workers would switch to nobody, who cannot read the key we just wrote.
    isRoot ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${tmp}/body;`,
    `  proxy_temp_path ${tmp}/proxy;`,
    `  fastcgi_temp_path ${tmp}/fastcgi;`,
    `  uwsgi_temp_path ${tmp}/uwsgi;`,
    `  scgi_temp_path ${tmp}/scgi;`,
    '  default_type application/octet-stream;',
    site,
    '}',
    '',
  ].join('\n')
  const confFile = path.join(dir, 'nginx.conf')
  fs.writeFileSync(confFile, main)

  const test = spawnSync(which('nginx'), ['-t', '-p', dir, '-c', confFile], { encoding: 'utf8' })
  if (test.status !== 0) throw new Error(`nginx -t refused the configuration:\n${test.stderr}`)

  const child = spawn(which('nginx'), ['-p', dir, '-c', confFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = capture(child)
  const url = `https://127.0.0.1:${httpsPort}`
  const http = `http://127.0.0.1:${httpPort}`
  await waitFor(
    async () => (await fetch(`${http}/`, { redirect: 'manual' })).status === 301,
    'nginx',
    15_000,
    child,
  )
  const read = (file) => {
    try {
      return fs.readFileSync(file, 'utf8')
    } catch {
      return ''
    }
  }
  return {
    url,
    httpUrl: http,
    pid: child.pid,
    stop: stopper(child),
    log: () => log() + read(path.join(dir, 'error.log')),
    accessLog: () => read(accessLog),
    errorLog: () => read(path.join(dir, 'error.log')),
  }
}

/**
 * The Content Lake double (tests/support/content-lake-double.mjs) on a port of its own.
 * @param {{ port: number, args?: string[] }} options
 * @returns {Promise<Running>}
 */
async function startContentLakeDouble({ port, args = [] }) {
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
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const log = capture(child)
  const url = `http://127.0.0.1:${port}`
  await waitFor(
    async () => (await fetch(`${url}/__health`)).ok,
    'the Content Lake double',
    30_000,
    child,
  )
  return { url, pid: child.pid, stop: stopper(child), log }
}

/**
 * tests/support/postgrest-double.mjs (Supabase's REST interface over PGlite) on a port of its own.
 * @param {{ port: number, anonKey: string, databaseUrl?: string }} options
 * @returns {Promise<Running>}
 */
async function startPostgrestDouble({ port, anonKey, databaseUrl }) {
  const child = spawn(
    process.execPath,
    [
      'tests/support/postgrest-double.mjs',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--anon-key',
      anonKey,
      // A real PostgreSQL database instead of an in-memory PGlite.
      ...(databaseUrl ? ['--database-url', databaseUrl] : []),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const log = capture(child)
  const url = `http://127.0.0.1:${port}`
  await waitFor(
    async () => (await fetch(`${url}/__health`)).ok,
    'the PostgREST double',
    // It migrates an in-memory PGlite first, which takes long on a loaded machine.
    60_000,
    child,
  )
  return { url, pid: child.pid, stop: stopper(child), log }
}

module.exports = {
  missingTools,
  skipWithout,
  ensureTools,
  tempDir,
  copyBuild,
  startRedis,
  startInstance,
  startNginx,
  startContentLakeDouble,
  startPostgrestDouble,
}

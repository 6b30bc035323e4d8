// The deployed shape of the site, started from real parts for the tests and the bench: Redis
// (redis-server), several instances of one production build sharing it, and nginx in front with
// deploy/nginx.conf. Every process is a direct child with its own config in a temporary folder,
// on the ports it is given, and is stopped by its PID.
//
// The binaries come from Debian's packages `redis-server` and `nginx` (.ci/run installs both).
// missingTools() names the package to install when one is absent, for the callers to skip.

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

/** Why the stack cannot start here (a sentence naming the Debian package), or undefined. */
function missingTools() {
  const missing = TOOLS.filter(({ bin }) => !which(bin))
  if (missing.length === 0) return undefined
  return (
    `${missing.map(({ bin }) => bin).join(', ')} not found: install ` +
    `${missing.map(({ pkg }) => pkg).join(' ')} (Debian: apt-get install ${missing.map(({ pkg }) => pkg).join(' ')}).`
  )
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
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s.`)
}

function stopper(child) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      child.once('exit', () => {
        clearTimeout(timer)
        resolve()
      })
      child.kill('SIGTERM')
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
 * redis-server on 127.0.0.1:port, nothing persisted.
 * @param {{ port: number, dir: string }} options
 * @returns {Promise<Running>}
 */
async function startRedis({ port, dir }) {
  const child = spawn(
    which('redis-server'),
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      // The cache handler keeps its tag map in step through expiry and eviction events.
      '--notify-keyspace-events',
      'Exe',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
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
 * One instance of a production build (`next start`), with its own environment.
 * @param {{ distDir: string, port: number, env?: Record<string, string>, logFile?: string }} options
 * @returns {Promise<Running>}
 */
async function startInstance({ distDir, port, env = {}, logFile }) {
  const child = spawn(
    path.join(root, 'node_modules', '.bin', 'next'),
    ['start', '-H', '127.0.0.1', '-p', String(port)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env, NEXT_DIST_DIR: distDir },
    },
  )
  const log = capture(child, logFile)
  const url = `http://127.0.0.1:${port}`
  await waitFor(
    async () => (await fetch(`${url}/robots.txt`)).ok,
    `next start on ${port}`,
    60_000,
    child,
  )
  return { url, pid: child.pid, stop: stopper(child), log }
}

/** Replaces exactly one occurrence, so that a change to deploy/nginx.conf breaks loudly here. */
function replaceOnce(text, from, to) {
  const count = text.split(from).length - 1
  if (count !== 1)
    throw new Error(`deploy/nginx.conf: expected "${from}" once, found it ${count} times.`)
  return text.replace(from, to)
}

/**
 * nginx with deploy/nginx.conf as the README has it installed, only its "# set:" lines changed:
 * these upstreams, ports on 127.0.0.1, a cache folder and a self-signed certificate.
 * @param {{ httpsPort: number, httpPort: number, upstreams: string[], dir: string }} options
 * @returns {Promise<Running & { httpUrl: string }>}
 */
async function startNginx({ httpsPort, httpPort, upstreams, dir }) {
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

  let site = fs.readFileSync(path.join(root, 'deploy', 'nginx.conf'), 'utf8')
  site = replaceOnce(
    site,
    '    server 127.0.0.1:3000;',
    upstreams.map((u) => `    server ${u};`).join('\n'),
  )
  site = replaceOnce(site, '/var/cache/nginx/vigia', path.join(dir, 'cache'))
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
  return {
    url,
    httpUrl: http,
    pid: child.pid,
    stop: stopper(child),
    log: () => log() + fs.readFileSync(path.join(dir, 'error.log'), 'utf8'),
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

module.exports = {
  missingTools,
  tempDir,
  startRedis,
  startInstance,
  startNginx,
  startContentLakeDouble,
}

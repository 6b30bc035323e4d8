#!/usr/bin/env node
// What one article publish costs with a large archive (issue 35), reproducibly:
//   npm run bench:publish                      # 1,000 extra articles, 40 others visited
//   npm run bench:publish -- --extra 200 --others 20 --no-build
// 1. a Content Lake double with the bundled dataset plus --extra articles (its query log counts);
// 2. a production build of the lake build against it (timed), into .next-bench-publish;
// 3. `next start` of it with the CDN purge going to a purge double that answers like Cloudflare,
//    and the webhook's default 3 s wait for the Content Lake's consistency (as in production);
// 4. scripts/lib/publish-cost.mjs: cache --others articles and an old one, publish an edit of the
//    old one through the signed webhook, measure; then rename the category half of the archive is
//    in, and visit the others outside it; prints the figures and the "Done when" of issue 35
//    beside them (the category's other-articles row held to the same bound as the article's). Ports from E2E_PORT_BASE (+42 server, +68 lake, +82 purge).

import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { startPurgeDouble } from '../../tests/support/purge-double.mjs'
import { withProjectFilesRestored } from '../lib/project-files.mjs'
import { measureCategoryPublish, measurePublishCost } from '../lib/publish-cost.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const require = createRequire(import.meta.url)
const { BUILDS, portFor } = require('../e2e-builds.cjs')
const { startContentLakeDouble, startInstance } = require('../lib/front-stack.cjs')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? Number(args[index + 1]) : fallback
}
const EXTRA = option('extra', 1000)
const OTHERS = option('others', 40)
const BUILD = !args.includes('--no-build')
const DIST_DIR = '.next-bench-publish'
const SECRET = BUILDS.lake.env.SANITY_REVALIDATE_SECRET

/** Issue 35's "Done when", on two cores. */
export const DONE_WHEN = {
  liveMs: 5000,
  queriesAfter: 50,
  othersQueries: 10,
  purgeMs: 10_000,
  purgeItems: 100,
}

function run(command, commandArgs, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    })
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exit ${code}`)),
    )
  })
}

const log = (line) => console.log(`[publish-cost] ${line}`)
const lake = await startContentLakeDouble({
  port: portFor(68).port,
  args: ['--token', 'test-read-token', '--extra-articles', String(EXTRA)],
})
const purge = await startPurgeDouble({ port: portFor(82).port, token: 'bench-purge-token' })
let server
try {
  // The production wait for consistency (3 s), not the lowered one of the end-to-end builds.
  const env = { ...BUILDS.lake.env, SANITY_API_HOST: lake.url, SANITY_IMAGE_HOST: lake.url }
  delete env.SANITY_WEBHOOK_CONSISTENCY_DELAY_MS
  let buildSeconds
  if (BUILD) {
    log(`building against ${EXTRA} extra articles`)
    rmSync(path.join(root, DIST_DIR), { recursive: true, force: true })
    const started = Date.now()
    await withProjectFilesRestored(root, () =>
      run(path.join(root, 'node_modules/.bin/next'), ['build'], {
        ...env,
        NEXT_DIST_DIR: DIST_DIR,
      }),
    )
    buildSeconds = (Date.now() - started) / 1000
    log(`build: ${buildSeconds.toFixed(1)} s`)
  }
  server = await startInstance({
    distDir: DIST_DIR,
    port: portFor(42).port,
    env: {
      ...env,
      CDN_PURGE_URL: purge.endpoint,
      CDN_PURGE_TOKEN: purge.token,
      NEXT_PUBLIC_SITE_URL: 'https://vigia.example',
    },
  })
  // The oldest article is edited; the others are spread over the archive.
  const step = Math.max(1, Math.floor(EXTRA / OTHERS))
  const others = Array.from({ length: OTHERS }, (_, index) => `article-carga-${1 + index * step}`)
  const figures = await measurePublishCost({
    origin: server.url,
    lakeUrl: lake.url,
    purge,
    secret: SECRET,
    edited: `article-carga-${EXTRA}`,
    others: others.filter((id) => id !== `article-carga-${EXTRA}`),
    log,
  })
  const stale = figures.othersCacheStates.filter((state) => state.cache !== 'HIT').length
  // The same others, then a rename of the category about half of the archive is in.
  const category = await measureCategoryPublish({
    origin: server.url,
    lakeUrl: lake.url,
    secret: SECRET,
    category: 'category-fadiga-e-seguranca',
    articles: others,
    log,
  })
  const rows = [
    ['build (s)', buildSeconds?.toFixed(1) ?? '(reused)', ''],
    ['live on its page (ms)', figures.liveMs ?? 'not within 20 s', `≤ ${DONE_WHEN.liveMs}`],
    ['Content Lake queries in the 20 s after', figures.queriesAfter, `≤ ${DONE_WHEN.queriesAfter}`],
    ['  different reads among them', figures.readsAfter, ''],
    [
      `${OTHERS} other articles, visited twice: queries`,
      figures.othersQueries,
      `≤ ${DONE_WHEN.othersQueries}`,
    ],
    ['  of those visits not a cache HIT', stale, ''],
    [
      'first purge request after the webhook (ms)',
      figures.purge.firstMs ?? 'none',
      `≤ ${DONE_WHEN.purgeMs}`,
    ],
    [
      'purge requests / most items in one',
      `${figures.purge.requests} / ${figures.purge.maxItems}`,
      `≤ ${DONE_WHEN.purgeItems} items`,
    ],
    ['purge answers', figures.purge.statuses.join(' '), ''],
    ['a category renamed: tags revalidated', category.revalidatedTags, ''],
    ['  webhook answered (ms)', category.answeredMs, ''],
    ['  live on one of its articles (ms)', category.liveMs ?? 'not within 20 s', ''],
    ['  Content Lake queries in the 20 s after', category.queriesAfter, ''],
    [
      `  ${category.outside} of another category, visited twice: queries`,
      category.outsideQueries,
      `≤ ${DONE_WHEN.othersQueries}`,
    ],
    ['    of those visits not a cache HIT', category.outsideNotHit, ''],
  ]
  console.log(`\nPublish cost with ${EXTRA} extra articles:`)
  for (const [what, value, goal] of rows)
    console.log(`  ${what.padEnd(46)} ${String(value).padStart(14)}  ${goal}`)
  console.log(
    `\nqueries after the publish:\n  ${figures.queriesAfterList.map((q) => q.replace(/\s+/g, ' ').slice(0, 110)).join('\n  ')}`,
  )
  const met =
    figures.liveMs !== undefined &&
    figures.liveMs <= DONE_WHEN.liveMs &&
    figures.queriesAfter <= DONE_WHEN.queriesAfter &&
    figures.othersQueries <= DONE_WHEN.othersQueries &&
    figures.purge.firstMs !== undefined &&
    figures.purge.firstMs <= DONE_WHEN.purgeMs &&
    figures.purge.maxItems <= DONE_WHEN.purgeItems &&
    figures.purge.statuses.every((status) => status === 200) &&
    category.liveMs !== undefined &&
    category.outsideQueries <= DONE_WHEN.othersQueries
  console.log(`\n${met ? 'Within' : 'NOT within'} issue 35's "Done when".`)
  process.exitCode = met ? 0 : 1
} finally {
  await server?.stop()
  await purge.close()
  await lake.stop()
}

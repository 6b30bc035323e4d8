import fs from 'node:fs'
import path from 'node:path'

import type { Browser } from '@playwright/test'

import {
  copyBuild,
  startContentLakeDouble,
  startInstance,
  startNginx,
  tempDir,
} from '../../scripts/lib/front-stack.cjs'
import { BUILDS } from '../../scripts/e2e-builds.cjs'

// The stack the visit-count specs (analytics, analytics-reach) run against, as production runs:
// nginx (deploy/nginx.conf) in front of one instance of the lake build, its Content Lake double,
// and visits and leads in the instance's embedded PGlite. Each spec has its own ports and files.

export type Running = { url: string; stop: () => Promise<void> }

export type AnalyticsStack = {
  lake: Running
  instance: Running
  front: Running
  /** Stops the instance (SIGTERM, so it writes what it buffered) and starts it again. */
  restartInstance: () => Promise<Running>
  stop: () => Promise<void>
}

/** Starts the stack named `name` (its build copy, temp folder and instance log are named so). */
export async function startAnalyticsStack({
  name,
  ports,
  lakeArgs = [],
  env = {},
}: {
  name: string
  ports: { double: number; instance: number; https: number; http: number }
  /** The double's users and tokens beyond the site's read token. */
  lakeArgs?: string[]
  env?: Record<string, string>
}): Promise<AnalyticsStack> {
  fs.mkdirSync('test-results', { recursive: true })
  const build = copyBuild(BUILDS.lake.distDir, name)
  const dir = tempDir(`vigia-${name}-`)
  const lake: Running = await startContentLakeDouble({
    port: ports.double,
    args: ['--token', 'test-read-token', ...lakeArgs],
  })
  const start = (): Promise<Running> =>
    startInstance({
      distDir: build.distDir,
      port: ports.instance,
      env: {
        ...BUILDS.lake.env,
        SANITY_API_HOST: lake.url,
        SANITY_IMAGE_HOST: lake.url,
        LEADS_DATA_DIR: path.join(dir, 'leads'),
        ...env,
      },
      logFile: path.join('test-results', `${name}-instance.log`),
    })
  const stack: AnalyticsStack = {
    lake,
    instance: await start(),
    front: undefined as unknown as Running,
    async restartInstance() {
      await stack.instance.stop()
      stack.instance = await start()
      return stack.instance
    },
    async stop() {
      await Promise.all([stack.front?.stop(), stack.instance?.stop(), lake.stop()])
      fs.rmSync(dir, { recursive: true, force: true })
      build.remove()
    },
  }
  stack.front = await startNginx({
    httpsPort: ports.https,
    httpPort: ports.http,
    upstreams: [new URL(stack.instance.url).host],
    dir,
  })
  return stack
}

/** Today in São Paulo, the day the counts are kept by. */
export const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())

/** A desktop Chrome user agent numbered `n`: each number a visitor of its own (not a bot). */
export const chrome = (n: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${n}.0 Safari/537.36`

/** A browser of a visitor of its own (a user agent of its own, so a visitor hash of its own). */
export function visitor(browser: Browser, userAgent: string, baseURL: string) {
  return browser.newContext({ userAgent, ignoreHTTPSErrors: true, baseURL })
}

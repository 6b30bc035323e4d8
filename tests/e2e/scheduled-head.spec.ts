import { expect, test } from '@playwright/test'

import { copyBuild, startContentLakeDouble, startInstance } from '../../scripts/lib/front-stack.cjs'
import { BUILDS, portFor } from '../../scripts/e2e-builds.cjs'
import { sanityWebhook } from '../support/sanity-webhook.mjs'
import { campaignPage, publishDeadline, type PublishDeadline } from './lake-fixtures'

/*
 * Issue 38: a page that was cached as a 404 (a scheduled campaign page asked for before its start)
 * and then goes live must answer with its own head, not the not-found page's. Next rebuilds a
 * stale 404 in the background with the 404 status of the answer it just sent, and gave that
 * render the not-found page's title, noindex and canonical (lib/cache/cache-handler.mjs,
 * isStaleNotFound). On a copy of the lake build that another server has already served from, as
 * the issue saw it, with a Content Lake double of its own. Runs in the Playwright project "head".
 */

test.describe.configure({ mode: 'serial' })

const PORTS = { lake: portFor(66).port, first: portFor(17).port, site: portFor(18).port }
const SECRET = BUILDS.lake.env.SANITY_REVALIDATE_SECRET
const RUN = Date.now().toString(36)

type Running = { url: string; stop: () => Promise<void> }
let build: { distDir: string; remove: () => void }
let lake: Running
let site: Running

function instanceEnv() {
  return { ...BUILDS.lake.env, SANITY_API_HOST: lake.url, SANITY_IMAGE_HOST: lake.url }
}

test.beforeAll(async () => {
  test.setTimeout(180_000)
  build = copyBuild(BUILDS.lake.distDir, 'head')
  lake = await startContentLakeDouble({ port: PORTS.lake, args: ['--token', 'test-read-token'] })
  // Another server serves from the same build folder first, and leaves its cache there.
  const first = await startInstance({
    distDir: build.distDir,
    port: PORTS.first,
    env: instanceEnv(),
  })
  for (const path of ['/', '/p/onibus-rodoviarios', '/conteudos'])
    expect((await fetch(`${first.url}${path}`)).status).toBe(200)
  await first.stop()
  site = await startInstance({ distDir: build.distDir, port: PORTS.site, env: instanceEnv() })
})

test.afterAll(async () => {
  await Promise.all([site?.stop(), lake?.stop()])
  build?.remove()
})

/**
 * Stores the page in the double and sends the signed webhook, as a publish in the Studio.
 * Returns the publish's deadline, started when the webhook was sent.
 */
async function publish(page: ReturnType<typeof campaignPage>): Promise<PublishDeadline> {
  const mutated = await fetch(`${lake.url}/__mutate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mutations: [{ createOrReplace: page }] }),
  })
  expect(mutated.ok).toBe(true)
  const delivery = await sanityWebhook(
    { _type: 'campaignPage', _id: page._id, slug: page.slug.current },
    SECRET,
  )
  const deadline = publishDeadline()
  const hook = await fetch(`${site.url}/api/revalidate`, {
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  })
  expect(hook.status).toBe(200)
  return deadline
}

type Answer = {
  status: number
  /** proxy.ts answered (a slug it does not know yet), not the page's own route. */
  byProxy: boolean
  hasBody: boolean
  title?: string
  robots: string[]
  canonical?: string
}

/** What a visitor's browser gets for the page, head and body. */
async function visit(path: string, headline: string): Promise<Answer> {
  const response = await fetch(`${site.url}${path}`, {
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' },
  })
  const html = await response.text()
  return {
    status: response.status,
    byProxy: response.headers.has('x-middleware-rewrite'),
    hasBody: html.includes(headline),
    title: html.match(/<title>([^<]*)<\/title>/)?.[1],
    robots: [...html.matchAll(/<meta name="robots" content="([^"]*)"/g)].map((m) => m[1] ?? ''),
    canonical: html.match(/<link rel="canonical" href="([^"]*)"/)?.[1],
  }
}

/** Until the page's own route has answered 404 and cached it (not the proxy, before it knows the slug). */
async function expectOwn404(path: string, headline: string) {
  await expect
    .poll(
      async () => {
        const answer = await visit(path, headline)
        return answer.status === 404 && !answer.byProxy
      },
      { timeout: 10_000 },
    )
    .toBe(true)
  expect(await visit(path, headline)).toMatchObject({ status: 404, byProxy: false })
}

/** A live page's head is its own: its title, indexable, its own canonical. */
function expectOwnHead(answer: Answer, path: string, headline: string) {
  expect(answer.status).toBe(200)
  expect(answer.hasBody).toBe(true)
  expect(answer.title).toBe(`${headline} | Vigia`)
  expect(answer.robots.filter((value) => value.includes('noindex'))).toEqual([])
  expect(new URL(answer.canonical ?? '', 'http://x').pathname).toBe(path)
}

test('a page cached as a 404, then published live, answers with its own head', async () => {
  const slug = `cabeca-publicada-${RUN}`
  const path = `/p/${slug}`
  const headline = 'Semana da segurança: demonstrações ao vivo'
  await publish(campaignPage(slug, headline, { visibleFrom: '2099-01-01T12:00:00Z' }))
  await expectOwn404(path, headline)

  // The editor removes the start: live now, through the webhook. Every answer counts, the very
  // first that shows the page included (Next's background rebuild of the stale 404 gave it the
  // not-found head, and a crawler may be the one who gets it).
  // Live within the promise from the moment the webhook is sent (docs/publishing.md), then three
  // answers that show it, each with its own head.
  const deadline = await publish(campaignPage(slug, headline))
  const answers: Answer[] = []
  let liveAfter: number | undefined
  const live = () => answers.filter((answer) => answer.status === 200).length
  while (live() < 3 && Date.now() <= deadline.at + (live() > 0 ? 5_000 : 0)) {
    answers.push(await visit(path, headline))
    if (live() === 1 && liveAfter === undefined) liveAfter = Date.now() - deadline.sentAt
  }
  for (const answer of answers) {
    if (answer.status === 200 || answer.hasBody) expectOwnHead(answer, path, headline)
    else expect(answer.status).toBe(404)
  }
  expect(liveAfter ?? Infinity, 'live within 5 s of the webhook being sent').toBeLessThanOrEqual(
    deadline.at - deadline.sentAt,
  )
  expect(live()).toBe(3)
})

test('a page cached as a 404 before its start answers with its own head from the start on', async () => {
  test.setTimeout(60_000)
  const slug = `cabeca-agendada-${RUN}`
  const path = `/p/${slug}`
  const headline = 'Feira de transporte: estamos lá'
  // A start a few seconds ahead, set once the page is ready to be asked for.
  const start = Date.now() + 15_000
  await publish(campaignPage(slug, headline, { visibleFrom: new Date(start).toISOString() }))
  await expectOwn404(path, headline)
  expect(Date.now()).toBeLessThan(start)

  // No webhook from here on. Across the start, every answer that shows the page has its head.
  while (Date.now() < start) await new Promise((resolve) => setTimeout(resolve, 50))
  const answers: Answer[] = []
  while (Date.now() < start + 3_000) {
    answers.push(await visit(path, headline))
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  for (const answer of answers) {
    if (answer.status === 200 || answer.hasBody) expectOwnHead(answer, path, headline)
    else expect(answer.status).toBe(404)
  }
  // Live by itself, from its start: the cached 404 expires at the start, to the millisecond.
  expect(answers[0]?.status).toBe(200)
  expectOwnHead(answers.at(-1)!, path, headline)
})

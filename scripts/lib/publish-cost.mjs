// What one article publish costs, measured on a running lake build: shared by the bench
// (scripts/bench/publish-cost.mjs, 1,000 extra articles, every figure) and the end-to-end test
// (tests/e2e/publish-cost.spec.ts, fewer articles, the deterministic figures only).
//
// Against a server whose Content Lake double logs its queries (GET /__requests) and whose CDN
// purges go to tests/support/purge-double.mjs: visits `others` articles and the edited one until
// each is cached, edits the edited article's title in the double, sends the signed webhook as
// Sanity would (docs/content.md projection), then measures
//   - liveMs: from the webhook being sent until the article's page shows the new title;
//   - queriesAfter: Content Lake queries in `windowMs` after the webhook; readsAfter: how many of
//     them were different reads (query, parameters but $now, perspective), the figure that does not
//     depend on timing: a regeneration that raced another of the same page repeats its reads;
//   - purge: when the first purge request arrived, how many, the most items in one, statuses;
//   - othersQueries: queries while the `others` are each visited twice afterwards, and how Next
//     answered them (x-nextjs-cache: HIT means not marked stale by the publish).

import { sanityWebhook } from '../../tests/support/sanity-webhook.mjs'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** GET a page on the server; its status, cache state and body. */
export async function visit(origin, path) {
  const response = await fetch(new URL(path, origin), { cache: 'no-store', redirect: 'manual' })
  return {
    status: response.status,
    cache: response.headers.get('x-nextjs-cache') ?? '',
    html: await response.text(),
  }
}

async function json(url, init) {
  const response = await fetch(url, init)
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: HTTP ${response.status}`)
  return response.json()
}

/** How many queries the Content Lake double has answered so far, and their queries. */
export async function lakeRequests(lakeUrl) {
  return json(`${lakeUrl}/__requests`)
}

/** The webhook's body for this article as the documented projection makes it. */
export function articleWebhookBody(article, before = article) {
  return {
    _type: 'article',
    _id: article._id,
    slug: article.slug?.current ?? null,
    before: {
      slug: before.slug?.current ?? null,
      publishedAt: before.publishedAt ?? null,
      categories: (before.categories ?? []).map((category) => category._ref),
    },
  }
}

/**
 * How many different reads a list of the double's requests holds: the same query with the same
 * parameters and perspective counts once.
 */
export function distinctReads(requests) {
  return new Set(requests.map(readKey)).size
}

/** The most times one read (query, parameters and perspective) was made in a list of requests. */
export function mostRepeatedRead(requests) {
  const counts = new Map()
  for (const request of requests)
    counts.set(readKey(request), (counts.get(readKey(request)) ?? 0) + 1)
  return Math.max(0, ...counts.values())
}

// `$now` (the instant visibility windows are judged at) is left out: a read repeated a moment
// later is the same read.
function readKey(request) {
  const params = { ...request.params }
  delete params.now
  return JSON.stringify([request.query, params, request.perspective ?? null])
}

/** Sends a webhook body to the site as Sanity sends it (signed, with its idempotency-key). */
export async function sendWebhook(origin, secret, body) {
  const delivery = await sanityWebhook(body, secret)
  const response = await fetch(new URL('/api/revalidate', origin), {
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  })
  return { status: response.status, body: await response.json().catch(() => null) }
}

async function lakeDocument(lakeUrl, id) {
  const query = encodeURIComponent('*[_id == $id][0]')
  const { result } = await json(
    `${lakeUrl}/v2025-02-19/data/query/production?query=${query}&%24id=${encodeURIComponent(JSON.stringify(id))}`,
  )
  return result
}

/**
 * Until the Content Lake double has answered no query for `quietMs`: whatever renders the
 * server started in the background (a STALE answer's regeneration, the routing table's refresh)
 * have made their queries. Throws after `timeoutMs` of queries.
 */
export async function untilQuiet(lakeUrl, { quietMs = 500, timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs
  let count = (await lakeRequests(lakeUrl)).count
  let since = Date.now()
  while (Date.now() - since < quietMs) {
    if (Date.now() > deadline)
      throw new Error(`the Content Lake double was never quiet for ${quietMs} ms`)
    await sleep(100)
    const now = (await lakeRequests(lakeUrl)).count
    if (now !== count) {
      count = now
      since = Date.now()
    }
  }
}

/** Visits each path until it answers 200 from Next's cache (rendered once, then a HIT). */
async function untilCached(origin, paths, { timeoutMs = 120_000 } = {}) {
  for (const path of paths) {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const { status, cache } = await visit(origin, path)
      if (status === 200 && cache === 'HIT') break
      if (Date.now() > deadline) throw new Error(`${path} never answered 200 from the cache`)
      await sleep(status === 200 ? 100 : 500)
    }
  }
}

/**
 * Sets a document's title in the double, sends its webhook signed, and waits until `livePath`
 * shows the title, then until `windowMs` after sending has passed (for the queries it caused).
 * `before`: the double's query count when the webhook was sent.
 */
async function retitleAndPublish({
  origin,
  lakeUrl,
  secret,
  id,
  title,
  webhookBody,
  livePath,
  windowMs,
}) {
  await json(`${lakeUrl}/__mutate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mutations: [{ patch: { id, set: { title } } }] }),
  })
  const before = (await lakeRequests(lakeUrl)).count
  const sentAt = Date.now()
  const webhook = await sendWebhook(origin, secret, webhookBody)
  if (webhook.status !== 200) throw new Error(`webhook answered ${webhook.status}`)
  const answeredMs = Date.now() - sentAt
  let liveMs
  while (Date.now() - sentAt < windowMs) {
    const { html } = await visit(origin, livePath)
    if (html.includes(title.replace(/&/g, '&amp;'))) {
      liveMs = Date.now() - sentAt
      break
    }
    await sleep(250)
  }
  await sleep(Math.max(0, sentAt + windowMs - Date.now()))
  return { webhook, sentAt, before, answeredMs, liveMs }
}

/**
 * @param {{
 *   origin: string, lakeUrl: string, purge: { purges: () => Promise<any[]> | any[], reset: () => unknown },
 *   secret: string, edited: string, others: string[], windowMs?: number, log?: (line: string) => void
 * }} options  edited/others: article ids (article-carga-<n>)
 */
export async function measurePublishCost({
  origin,
  lakeUrl,
  purge,
  secret,
  edited,
  others,
  windowMs = 20_000,
  log = () => {},
}) {
  const editedDoc = await lakeDocument(lakeUrl, edited)
  const otherDocs = await Promise.all(others.map((id) => lakeDocument(lakeUrl, id)))
  const pathOf = (doc) => `/conteudos/${doc.slug.current}`
  const otherPaths = otherDocs.map(pathOf)

  log(`caching ${otherPaths.length + 1} article pages`)
  await untilCached(origin, [pathOf(editedDoc), ...otherPaths])
  // Anything those renders started in the background has settled.
  await untilQuiet(lakeUrl)
  await purge.reset()

  log('publishing one article edit through the signed webhook')
  const { webhook, sentAt, before, liveMs } = await retitleAndPublish({
    origin,
    lakeUrl,
    secret,
    id: edited,
    title: `${editedDoc.title} (editado ${Date.now()})`,
    webhookBody: articleWebhookBody(editedDoc),
    livePath: pathOf(editedDoc),
    windowMs,
  })
  const after = await lakeRequests(lakeUrl)
  const queriesAfter = after.requests.slice(before)
  const purges = (await purge.purges()).filter((request) => request.at >= sentAt)

  log(`visiting ${otherPaths.length} other articles twice`)
  const beforeOthers = (await lakeRequests(lakeUrl)).count
  const cacheStates = []
  for (let round = 0; round < 2; round++)
    for (const path of otherPaths) {
      const { status, cache } = await visit(origin, path)
      cacheStates.push({ path, status, cache })
    }
  // A render those visits started in the background would query now.
  await untilQuiet(lakeUrl)
  const othersLog = (await lakeRequests(lakeUrl)).requests.slice(beforeOthers)

  return {
    webhook: webhook.body,
    liveMs,
    queriesAfter: queriesAfter.length,
    readsAfter: distinctReads(queriesAfter),
    mostRepeatedAfter: mostRepeatedRead(queriesAfter),
    queriesAfterList: queriesAfter.map(
      (request) => `${request.query} ${JSON.stringify(request.params ?? {})}`,
    ),
    purge: {
      firstMs: purges.length > 0 ? Math.min(...purges.map((p) => p.at)) - sentAt : undefined,
      requests: purges.length,
      maxItems: Math.max(0, ...purges.map((p) => p.items.length)),
      statuses: purges.map((p) => p.status),
      items: purges.flatMap((p) => p.items),
    },
    othersQueries: othersLog.length,
    othersQueryList: othersLog.map((request) => request.query),
    othersCacheStates: cacheStates,
    editedPath: pathOf(editedDoc),
    otherPaths,
  }
}

/**
 * A category renamed, with many articles in it: its articles' pages change (each revalidated by
 * its own tag), the other categories' articles must stay cached. `articles`: article ids, some
 * in the category and some not, whose pages are cached first.
 * @param {{
 *   origin: string, lakeUrl: string, secret: string, category: string,
 *   articles: string[], windowMs?: number, log?: (line: string) => void
 * }} options
 */
export async function measureCategoryPublish({
  origin,
  lakeUrl,
  secret,
  category,
  articles,
  windowMs = 20_000,
  log = () => {},
}) {
  const categoryDoc = await lakeDocument(lakeUrl, category)
  const docs = await Promise.all(articles.map((id) => lakeDocument(lakeUrl, id)))
  const shows = (doc) => (doc.categories ?? []).some((ref) => ref._ref === category)
  const pathOf = (doc) => `/conteudos/${doc.slug.current}`
  const insidePaths = docs.filter(shows).map(pathOf)
  const outsidePaths = docs.filter((doc) => !shows(doc)).map(pathOf)
  if (insidePaths.length === 0 || outsidePaths.length === 0)
    throw new Error(`measureCategoryPublish: needs articles in ${category} and outside it`)
  log(`caching ${insidePaths.length + outsidePaths.length} article pages`)
  await untilCached(origin, [...insidePaths, ...outsidePaths])
  await untilQuiet(lakeUrl)

  log('publishing a category rename through the signed webhook')
  const { webhook, before, answeredMs, liveMs } = await retitleAndPublish({
    origin,
    lakeUrl,
    secret,
    id: category,
    title: `${categoryDoc.title} (renomeada ${Date.now()})`,
    webhookBody: { _type: 'category', _id: category, slug: categoryDoc.slug.current },
    livePath: insidePaths[0],
    windowMs,
  })
  const queriesAfter = (await lakeRequests(lakeUrl)).count - before

  log(`visiting ${outsidePaths.length} articles of another category twice`)
  const beforeOutside = (await lakeRequests(lakeUrl)).count
  const cacheStates = []
  for (let round = 0; round < 2; round++)
    for (const path of outsidePaths) cacheStates.push((await visit(origin, path)).cache)
  await untilQuiet(lakeUrl)

  return {
    inside: insidePaths.length,
    outside: outsidePaths.length,
    revalidatedTags: webhook.body?.revalidated?.length ?? 0,
    answeredMs,
    liveMs,
    queriesAfter,
    outsideQueries: (await lakeRequests(lakeUrl)).count - beforeOutside,
    outsideNotHit: cacheStates.filter((cache) => cache !== 'HIT').length,
  }
}

import { expect, type APIRequestContext } from '@playwright/test'

import { CONTENT_TAGS } from '../../lib/content/tags'
import { sanityWebhook } from '../support/sanity-webhook.mjs'
import { LAKE_REVALIDATE_SECRET, SERVERS } from './servers'

// What the specs that publish on the lake build share (campaign-publishing, articles-publishing,
// campaign-lifecycle): the Content Lake double's content, and the webhook Sanity sends.

/** The lake build's `next start` and its Content Lake double (scripts/e2e-builds.cjs). */
export const LAKE_SITE = SERVERS.lake.url
export const LAKE_DOUBLE = SERVERS.lakeDouble.url

/** Changes the double's content as a publish in the Studio would (tests/support/content-lake-double.mjs). */
export async function mutateLake(request: APIRequestContext, ...mutations: unknown[]) {
  const response = await request.post(`${LAKE_DOUBLE}/__mutate`, { data: { mutations } })
  expect(response.ok(), await response.text()).toBe(true)
}

/**
 * The promise to editors (docs/publishing.md): a publish reaches visitors within 5 s of Sanity
 * sending the webhook, the route's wait for the Content Lake's consistency included.
 */
export const PUBLISH_PROMISE_MS = 5_000

/**
 * What an instance that did not receive the webhook gets on top (docs/publishing.md): its next
 * read of the shared versions in Redis, once a second.
 */
export const OTHER_INSTANCE_MS = 1_000

/**
 * How far ahead of "now" campaign-lifecycle.spec.ts writes a visibility window's boundary, once
 * the checks before it have passed: the publish that writes it and its checks (bounded by the
 * 5 s above) must fit before it. 10 s; E2E_LIFECYCLE_WINDOW_MS (docs/testing.md, a test knob)
 * shortens it on a quiet machine, never below the publish's 5 s and 1 s to deliver it.
 */
export const LIFECYCLE_WINDOW_MS = (() => {
  const value = process.env.E2E_LIFECYCLE_WINDOW_MS?.trim()
  if (!value) return 10_000
  const ms = Number(value)
  const min = PUBLISH_PROMISE_MS + OTHER_INSTANCE_MS
  if (!/^\d+$/.test(value) || ms < min)
    throw new Error(`E2E_LIFECYCLE_WINDOW_MS="${value}" must be a whole number of ms from ${min}.`)
  return ms
})()

/**
 * One deadline per publish, started the moment the webhook is sent (not when it is answered:
 * the route's consistency wait is part of the promise). Every check of that publish shares it,
 * so "within 5 s" means 5 s in all, not 5 s per check.
 */
export type PublishDeadline = {
  /** When the webhook was sent (ms since the epoch). */
  readonly sentAt: number
  /** When the promise runs out. */
  readonly at: number
  /** Milliseconds left, never below 0. */
  left(): number
}

export function publishDeadline(
  sentAt = Date.now(),
  budgetMs = PUBLISH_PROMISE_MS,
): PublishDeadline {
  return { sentAt, at: sentAt + budgetMs, left: () => Math.max(0, sentAt + budgetMs - Date.now()) }
}

/**
 * Polls `check` until it holds, failing once the publish's deadline has passed (one last try
 * after it, so a check that holds at the deadline passes). Returns how long after the webhook was
 * sent it held.
 */
export async function reachedBy(
  deadline: PublishDeadline,
  check: () => Promise<boolean>,
  what = 'the publish reached visitors',
): Promise<number> {
  const intervals = [100, 250, 250, 500]
  for (let attempt = 0; ; attempt++) {
    const last = Date.now() >= deadline.at
    if (await check()) return Date.now() - deadline.sentAt
    if (last)
      throw new Error(
        `${what}: not within ${deadline.at - deadline.sentAt} ms of the webhook being sent ` +
          `(still not after ${Date.now() - deadline.sentAt} ms)`,
      )
    const pause = intervals[Math.min(attempt, intervals.length - 1)]!
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, deadline.left() || 1)))
  }
}

/** What Sanity sends for a document, signed: the webhook's projection (docs/content.md). */
export async function publishWebhook(request: APIRequestContext, body: Record<string, unknown>) {
  return (await deliverWebhook(request, body)).answer
}

/**
 * Sends the webhook as publishWebhook does, and returns its answer and the publish's deadline,
 * started just before the webhook was sent.
 */
export async function deliverWebhook(
  request: APIRequestContext,
  body: Record<string, unknown>,
): Promise<{ answer: Record<string, unknown>; deadline: PublishDeadline }> {
  const delivery = await sanityWebhook(body, LAKE_REVALIDATE_SECRET)
  const deadline = publishDeadline()
  const response = await request.post(`${LAKE_SITE}/api/revalidate`, {
    data: delivery.body,
    headers: delivery.headers,
  })
  expect(response.status()).toBe(200)
  return { answer: (await response.json()) as Record<string, unknown>, deadline }
}

/**
 * Resets the Content Lake double (the content it started with, consistent at once) and has the
 * site forget what other specs published: one webhook per type the site caches, so that no page
 * keeps another spec's content, or expires at another spec's window. Each spec on the lake build
 * starts with this, so none depends on which ran before it.
 */
export async function resetLake(request: APIRequestContext) {
  const response = await request.post(`${LAKE_DOUBLE}/__reset`, { data: {} })
  expect(response.ok(), await response.text()).toBe(true)
  await Promise.all(
    Object.keys(CONTENT_TAGS).map((type) => publishWebhook(request, { _type: type, _id: type })),
  )
}

/** Makes the double answer queries with the state from `delayMs` ago (0: consistent at once). */
export async function lakeConsistencyDelay(request: APIRequestContext, delayMs: number) {
  const response = await request.post(`${LAKE_DOUBLE}/__consistency`, { data: { delayMs } })
  expect(response.ok(), await response.text()).toBe(true)
}

/** A campaign page with one hero block, as the Studio stores it (`extra`: a window, a redirect…). */
export function campaignPage(slug: string, headline: string, extra: Record<string, unknown> = {}) {
  return {
    _id: `campaignPage-${slug}`,
    _type: 'campaignPage',
    title: headline,
    slug: { _type: 'slug', current: slug },
    seo: { description: 'Página de teste do período no ar.' },
    blocks: [
      {
        _type: 'heroBlock',
        _key: 'h',
        headline,
        description: 'Detecção de fadiga no smartphone do motorista.',
        primaryCta: { _type: 'link', label: 'Falar com a equipe', href: '/#contato' },
      },
    ],
    ...extra,
  }
}

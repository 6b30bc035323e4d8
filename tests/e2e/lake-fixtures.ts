import { expect, type APIRequestContext } from '@playwright/test'
import { encodeSignatureHeader } from '@sanity/webhook'

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

/** What Sanity sends for a document of this type: {_type, _id, "slug": slug.current}, signed. */
export async function publishWebhook(request: APIRequestContext, body: Record<string, unknown>) {
  const text = JSON.stringify(body)
  const response = await request.post(`${LAKE_SITE}/api/revalidate`, {
    data: text,
    headers: {
      'content-type': 'application/json',
      'sanity-webhook-signature': await encodeSignatureHeader(
        text,
        Date.now(),
        LAKE_REVALIDATE_SECRET,
      ),
    },
  })
  expect(response.status()).toBe(200)
  return response.json()
}

/** Polls (up to 5 s, the promise to editors) until `check` holds for what visitors get. */
export async function within5s(check: () => Promise<boolean>) {
  await expect.poll(check, { timeout: 5_000, intervals: [100, 250, 250, 500] }).toBe(true)
}

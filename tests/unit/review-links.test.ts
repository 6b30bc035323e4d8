import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { createReviewToken, hashReviewToken } from '@/lib/review-token'

import { loadNdjson, startContentLakeDouble } from '../support/content-lake-double.mjs'

// Review links as the site checks them (lib/content getReviewPage), against the Content Lake
// double: the server, not the editor's browser, decides how long a link may live, and a server
// without the read token answers every link "not found" (the page's 404), never an error.

vi.mock('next/headers', () => ({ draftMode: async () => ({ isEnabled: false }) }))

const TOKEN = 'review-test-token'
const DAY = 86_400_000
let lake: Awaited<ReturnType<typeof startContentLakeDouble>>

beforeAll(async () => {
  lake = await startContentLakeDouble({
    port: 0,
    token: TOKEN,
    documents: loadNdjson('sanity/dataset/production.ndjson'),
  })
  // The first import transforms the content module's whole graph: seconds on a loaded 2-core
  // machine, which made the first test outrun its 5 s. Paid once here; each test re-imports it.
  await content()
}, 60_000)
afterAll(() => lake.close())
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

async function content(token: string | undefined = TOKEN) {
  vi.resetModules()
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'testproj')
  vi.stubEnv('SANITY_API_HOST', lake.url)
  vi.stubEnv('SANITY_API_READ_TOKEN', token ?? '')
  return import('@/lib/content')
}

/** A review link to the bundled bus page, created `ageDays` ago, expiring `lifetimeDays` after. */
async function link(lifetimeDays: number, ageDays = 1) {
  const token = createReviewToken()
  const createdAt = Date.now() - ageDays * DAY
  lake.mutate([
    {
      createOrReplace: {
        _id: `review-links.${token.slice(0, 8)}`,
        _type: 'reviewLink',
        _createdAt: new Date(createdAt).toISOString(),
        page: { _type: 'reference', _ref: 'campaignPage-onibus-rodoviarios', _weak: true },
        tokenHash: await hashReviewToken(token),
        expiresAt: new Date(createdAt + lifetimeDays * DAY).toISOString(),
        revoked: false,
      },
    },
  ])
  return token
}

describe('review links on the server', () => {
  it('open a link of up to 30 days', async () => {
    const { getReviewPage } = await content()
    for (const days of [7, 30]) {
      expect((await getReviewPage(await link(days)))?.name, `${days} days`).toBe('campaignPage')
    }
  })

  it('refuse a link whose lifetime exceeds 30 days from its creation, however it was set', async () => {
    const { getReviewPage } = await content()
    for (const days of [31, 36_500]) {
      expect(await getReviewPage(await link(days)), `${days} days`).toBeNull()
    }
  })

  it('answer "not found" without the read token, asking the Content Lake nothing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { getReviewPage } = await content('')
    const token = await link(7)
    const before = lake.requests().count
    await expect(getReviewPage(token)).resolves.toBeNull()
    await expect(getReviewPage(token)).resolves.toBeNull()
    expect(lake.requests().count).toBe(before)
    expect(error).toHaveBeenCalledTimes(1)
    expect(String(error.mock.calls[0]?.[0])).toMatch(/SANITY_API_READ_TOKEN is not set/)
  })
})

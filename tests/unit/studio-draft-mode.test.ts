import { stegaClean } from 'next-sanity'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { loadNdjson, startContentLakeDouble } from '../support/content-lake-double.mjs'

// Draft mode, as the site's content module sees it, against the Content Lake double: editors get
// drafts (read with the server-only token), everyone else only ever gets published documents.

const { draftMode } = vi.hoisted(() => ({ draftMode: vi.fn() }))
vi.mock('next/headers', () => ({ draftMode }))

const TOKEN = 'draft-test-token'
const ENV_KEYS = [
  'NEXT_PUBLIC_SANITY_PROJECT_ID',
  'SANITY_API_HOST',
  'SANITY_API_READ_TOKEN',
] as const
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]))

let lake: Awaited<ReturnType<typeof startContentLakeDouble>>

beforeAll(async () => {
  lake = await startContentLakeDouble({
    port: 0,
    token: TOKEN,
    documents: [
      ...loadNdjson('sanity/dataset/production.ndjson'),
      {
        _id: 'drafts.claim-accuracy',
        _type: 'claim',
        value: '12,3%',
        label: 'Precisão de detecção',
      },
    ],
  })
})

afterAll(() => lake.close())

afterEach(() => {
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key]
    else process.env[key] = savedEnv[key]
  }
})

/** lib/content as a server configured for the double (and draft mode on or off) would load it. */
async function loadContent({ draft, token = TOKEN }: { draft: boolean; token?: string }) {
  vi.resetModules()
  process.env.NEXT_PUBLIC_SANITY_PROJECT_ID = 'testproj'
  process.env.SANITY_API_HOST = lake.url
  if (token) process.env.SANITY_API_READ_TOKEN = token
  else delete process.env.SANITY_API_READ_TOKEN
  draftMode.mockResolvedValue({ isEnabled: draft })
  lake.reset()
  return import('@/lib/content')
}

function accuracy(
  page: Awaited<ReturnType<Awaited<ReturnType<typeof loadContent>>['getLandingPage']>>,
) {
  return page?.tecnologia?.specs?.find((claim) => claim?._id === 'claim-accuracy')?.value
}

describe('content in draft mode', () => {
  it('shows visitors the published figure, read without a token', async () => {
    const { getLandingPage } = await loadContent({ draft: false })
    expect(accuracy(await getLandingPage())).toBe('98,5%')
    const [request] = lake.requests().requests
    expect(request).toMatchObject({ perspective: 'published', authorized: false })
  })

  it('shows editors the draft, read with the drafts perspective and the read token', async () => {
    const { getLandingPage } = await loadContent({ draft: true })
    const figure = accuracy(await getLandingPage())
    // Stega-encoded for Presentation's click-to-edit (the double answers with a source map).
    expect(figure).not.toBe('12,3%')
    expect(stegaClean(figure)).toBe('12,3%')
    const [request] = lake.requests().requests
    expect(request).toMatchObject({ perspective: 'drafts', authorized: true })
  })

  it('fails loudly in draft mode when the server has no read token', async () => {
    const { getLandingPage } = await loadContent({ draft: true, token: '' })
    await expect(getLandingPage()).rejects.toThrow(/SANITY_API_READ_TOKEN/)
    expect(lake.requests().count).toBe(0)
  })
})

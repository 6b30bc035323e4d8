import { createClient, type SanityClient } from '@sanity/client'
import type { DocumentActionComponent, DocumentActionProps } from 'sanity'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import { startContentLakeDouble } from '../support/content-lake-double.mjs'

// The Studio's publish action for campaign pages (sanity/actions/publish-with-redirect.ts), run
// as the Studio runs it: its client (useClient) talks to the Content Lake double's query and
// mutation APIs, and the redirects it writes are read back from the double.

const TOKEN = 'editor-token'
let client: SanityClient
vi.mock('sanity', () => ({ useClient: () => client }))

let lake: Awaited<ReturnType<typeof startContentLakeDouble>>

beforeAll(async () => {
  lake = await startContentLakeDouble({
    port: 0,
    // An editor's token: it reads drafts and writes (the double's read token alone gets 403).
    token: TOKEN,
    writeToken: TOKEN,
    documents: [
      {
        _id: 'campaignPage-frotas',
        _type: 'campaignPage',
        title: 'Frotas',
        slug: { _type: 'slug', current: 'frotas' },
      },
      // An older address that already led to the page: it must lead to the new one directly.
      {
        _id: 'redirect-promo',
        _type: 'redirect',
        from: '/promo',
        to: '/p/frotas',
        permanent: true,
      },
      { _id: 'redirect-other', _type: 'redirect', from: '/outra', to: '/p/outra', permanent: true },
    ],
  })
  client = createClient({
    projectId: 'testproj',
    dataset: 'production',
    apiHost: lake.url,
    useProjectHostname: false,
    apiVersion: '2025-02-19',
    useCdn: false,
    token: TOKEN,
  })
})
afterAll(() => lake.close())
beforeEach(() => lake.reset())

const redirects = () =>
  client.fetch<Array<{ _id: string; from: string; to: string; permanent: boolean }>>(
    '*[_type == "redirect"]{_id, from, to, permanent} | order(_id asc)',
  )

/** What the lake held when Sanity's own publish ran. */
let atPublish: Promise<Array<{ _id: string }>> | undefined

/** Sanity's own publish action, observed: records when it ran and what the lake held then. */
function sanityPublish(log: string[]): DocumentActionComponent {
  const publish: DocumentActionComponent = () => ({
    label: 'Publish',
    onHandle: () => {
      log.push('published')
      atPublish = redirects()
    },
  })
  publish.action = 'publish'
  return publish
}

function props(published: string | undefined, draft: string): DocumentActionProps {
  const doc = (slug: string) => ({
    _id: 'campaignPage-frotas',
    _type: 'campaignPage',
    _createdAt: '',
    _updatedAt: '',
    _rev: '',
    slug: { _type: 'slug', current: slug },
  })
  return {
    id: 'campaignPage-frotas',
    type: 'campaignPage',
    published: published ? doc(published) : null,
    draft: doc(draft),
  } as unknown as DocumentActionProps
}

describe('publishing a campaign page under a new slug (Studio action)', { timeout: 30_000 }, () => {
  it('writes the redirect from the old address, points older redirects at the new one, then publishes', async () => {
    const { withSlugChangeRedirect } = await import('@/sanity/actions/publish-with-redirect')
    const log: string[] = []
    const action = withSlugChangeRedirect(sanityPublish(log))
    expect(action.action).toBe('publish')
    const description = action(props('frotas', 'frotas-pesadas'))!
    expect(description.label).toBe('Publish')
    await description.onHandle!()

    expect(log).toEqual(['published'])
    expect(await redirects()).toEqual([
      { _id: 'redirect-other', from: '/outra', to: '/p/outra', permanent: true },
      {
        _id: 'redirect-p-frotas',
        from: '/p/frotas',
        to: '/p/frotas-pesadas',
        permanent: true,
      },
      { _id: 'redirect-promo', from: '/promo', to: '/p/frotas-pesadas', permanent: true },
    ])
    // Written (through the mutation API, with the editor's token) before the publish itself.
    expect((await atPublish)?.map((redirect) => redirect._id)).toContain('redirect-p-frotas')
  })

  it('writes nothing when the slug is unchanged or the page was never published', async () => {
    const { withSlugChangeRedirect } = await import('@/sanity/actions/publish-with-redirect')
    for (const [published, draft] of [
      ['frotas', 'frotas'],
      [undefined, 'nova'],
    ] as const) {
      const log: string[] = []
      await withSlugChangeRedirect(sanityPublish(log))(props(published, draft))!.onHandle!()
      expect(log).toEqual(['published'])
    }
    expect((await redirects()).map((redirect) => redirect._id)).toEqual([
      'redirect-other',
      'redirect-promo',
    ])
  })

  it('does not publish when the redirect cannot be written (the lake refuses the write)', async () => {
    const { withSlugChangeRedirect } = await import('@/sanity/actions/publish-with-redirect')
    const log: string[] = []
    const saved = client
    client = saved.withConfig({ token: 'a-viewer-token-that-cannot-write' })
    try {
      await expect(
        withSlugChangeRedirect(sanityPublish(log))(props('frotas', 'nova'))!.onHandle!(),
      ).rejects.toThrow()
    } finally {
      client = saved
    }
    expect(log).toEqual([])
  })
})

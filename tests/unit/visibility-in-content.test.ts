import { beforeEach, describe, expect, it, vi } from 'vitest'

import type { Doc } from './content-support'

// Visibility windows are judged in one place, lib/content (issue 35): a campaign page, an
// article, the announcement and the listing answer as if a document outside its window did not
// exist, and make the answer being rendered expire at the next start or end. The pages and the
// sitemap never filter. Over the bundled dataset with windows set here.
const { unstableCache, documents } = vi.hoisted(() => ({
  unstableCache: vi.fn(),
  documents: { current: [] as Doc[] },
}))
vi.mock('next/cache', () => ({
  unstable_cache: (fn: () => unknown, key: string[], options: { revalidate: number }) => {
    unstableCache(key, options)
    return fn
  },
}))
vi.mock('next/headers', () => ({ draftMode: async () => ({ isEnabled: false }) }))
vi.mock('@/lib/content/bundled', async (importOriginal) => {
  const bundled = await importOriginal<typeof import('@/lib/content/bundled')>()
  return {
    ...bundled,
    queryDataset: (query: string, params: Record<string, unknown>) =>
      bundled.queryDataset(query, params, documents.current as never),
  }
})

const { bundledDocuments } = await import('./content-support')
const { getAnnouncement, getArticleListPage, getCampaignPage } = await import('@/lib/content')

const HOUR = 3_600_000
const iso = (ms: number) => new Date(ms).toISOString()

function withWindows(windows: Record<string, { visibleFrom?: string; visibleUntil?: string }>) {
  const docs = bundledDocuments()
  for (const [id, window] of Object.entries(windows)) {
    const doc = docs.find((candidate) => candidate._id === id)
    if (doc) Object.assign(doc, window)
    else
      docs.push({ _id: id, _type: 'announcement', text: 'Aviso', tone: 'informativo', ...window })
  }
  documents.current = docs
}

beforeEach(() => unstableCache.mockClear())

describe('visibility enforced in lib/content', () => {
  it('a campaign page before its start: null (the page answers 404), expiring at the start', async () => {
    withWindows({ 'campaignPage-onibus-rodoviarios': { visibleFrom: iso(Date.now() + HOUR) } })
    expect(await getCampaignPage('onibus-rodoviarios')).toBeNull()
    expect(unstableCache.mock.calls.at(-1)![1].revalidate).toBeGreaterThan(3500)
    // The editor's preview shows it whatever its window.
    expect((await getCampaignPage('onibus-rodoviarios', { anyWindow: true }))?.slug).toBe(
      'onibus-rodoviarios',
    )
    withWindows({ 'campaignPage-onibus-rodoviarios': { visibleUntil: iso(Date.now() + HOUR) } })
    expect((await getCampaignPage('onibus-rodoviarios'))?.slug).toBe('onibus-rodoviarios')
  })

  it('a campaign page’s latest-articles blocks: only the articles inside their window', async () => {
    withWindows({
      'article-como-o-celular-detecta-fadiga': { visibleFrom: iso(Date.now() + HOUR / 2) },
    })
    const campaign = documents.current.find((doc) => doc._id === 'campaignPage-onibus-rodoviarios')!
    ;(campaign.blocks as unknown[]).push({
      _type: 'latestArticlesBlock',
      _key: 'ultimos',
      count: 3,
    })
    const page = await getCampaignPage('onibus-rodoviarios')
    const blocks = (page?.blocks ?? []).filter((block) => block._type === 'latestArticlesBlock')
    expect(blocks.length).toBeGreaterThan(0)
    for (const block of blocks) {
      const slugs = ('articles' in block ? (block.articles ?? []) : []).map((a) => a.slug)
      expect(slugs.length).toBeGreaterThan(0)
      expect(slugs).not.toContain('como-o-celular-detecta-fadiga')
    }
  })

  it('the announcement: only inside its window', async () => {
    withWindows({ announcement: { visibleUntil: iso(Date.now() - HOUR) } })
    expect(await getAnnouncement()).toBeNull()
    withWindows({ announcement: { visibleFrom: iso(Date.now() - HOUR) } })
    expect((await getAnnouncement())?.text).toBe('Aviso')
  })

  it('the listing counts and shows only live articles, and expires at the next boundary', async () => {
    withWindows({
      'article-como-o-celular-detecta-fadiga': { visibleFrom: iso(Date.now() + HOUR / 2) },
    })
    const list = await getArticleListPage(1)
    expect(list.total).toBe(2)
    expect(list.articles.map((article) => article.slug)).not.toContain(
      'como-o-celular-detecta-fadiga',
    )
    const { revalidate } = unstableCache.mock.calls.at(-1)![1]
    expect(revalidate).toBeGreaterThan(1800 - 60)
    expect(revalidate).toBeLessThanOrEqual(1800)
  })
})

import { beforeEach, describe, expect, it, vi } from 'vitest'

// The tags an article page's data is cached under, against a configured Sanity project: what a
// publish revalidates (lib/routed-type-plans.ts) works only if the fetches carry those very tags.
const fetchFromSanity = vi.hoisted(() => vi.fn())
vi.mock('@/sanity/env', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  isSanityConfigured: true,
}))
vi.mock('@/lib/content/sanity-client', () => ({ fetchFromSanity }))

const { getArticle } = await import('@/lib/content')
const { ANY_RELATED_TAG, CONTENT_TAGS, documentTag, everyDocumentTag, relatedTag } =
  await import('@/lib/content/tags')

beforeEach(() => {
  fetchFromSanity.mockReset()
  fetchFromSanity
    .mockResolvedValueOnce({
      _id: 'article-a',
      slug: 'artigo-a',
      publishedAt: '2026-01-01T12:00:00Z',
      categories: [{ _id: 'category-x' }, { _id: 'category-y' }],
    })
    .mockResolvedValueOnce([])
})

describe('an article page’s data', () => {
  it('is cached under its own tag, never its type’s, its categories’ or its author’s', async () => {
    await getArticle('artigo-a')
    const [, , tags] = fetchFromSanity.mock.calls[0]!
    expect(tags).toContain(documentTag('article', 'artigo-a'))
    // What a category or author publish revalidates when it cannot say which articles show it.
    expect(tags).toContain(everyDocumentTag('article'))
    for (const type of ['article', 'category', 'author'] as const) {
      expect(tags).not.toContain(CONTENT_TAGS[type])
    }
  })

  it('has its related list cached under its categories’ related tags and the tag of every such list', async () => {
    await getArticle('artigo-a')
    const [, params, tags] = fetchFromSanity.mock.calls[1]!
    expect(params).toMatchObject({ categories: ['category-x', 'category-y'] })
    expect([...tags].sort()).toEqual(
      [ANY_RELATED_TAG, relatedTag('category-x'), relatedTag('category-y')].sort(),
    )
  })
})

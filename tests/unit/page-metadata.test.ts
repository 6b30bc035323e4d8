// pageMetadata (lib/site-metadata.ts) is the one builder of every page's <head> metadata; the
// rendered heads are checked end to end (tests/e2e/seo.spec.ts, articles.spec.ts,
// scheduled-head.spec.ts). This pins what each option adds, and that draft mode's invisible
// edit markers never reach a <head>.
import { vercelStegaCombine } from '@vercel/stega'
import { describe, expect, it } from 'vitest'

import { pageMetadata, withBrand } from '@/lib/site-metadata'

const stega = (text: string) => vercelStegaCombine(text, { origin: 'sanity.io', href: '/studio' })
const settings = { brandName: stega('Vigia') } as never

describe('pageMetadata', () => {
  it('cleans draft mode edit markers from every string it writes', () => {
    const metadata = pageMetadata({
      path: '/privacidade',
      title: withBrand(stega('Política de Privacidade'), settings),
      description: stega('O que a Vigia faz com os dados.'),
      settings,
    })
    expect(stega('x')).not.toBe('x')
    expect(metadata.title).toBe('Política de Privacidade | Vigia')
    expect(metadata.description).toBe('O que a Vigia faz com os dados.')
    expect(metadata.openGraph).toMatchObject({
      siteName: 'Vigia',
      title: 'Política de Privacidade | Vigia',
    })
  })

  it('adds robots, the feed link, the share image and the article fields only when asked', () => {
    const plain = pageMetadata({ path: '/p/a', title: 'A', description: undefined, settings })
    expect(plain.robots).toBeUndefined()
    expect(plain.alternates).toEqual({ canonical: '/p/a' })
    expect(plain.openGraph).not.toHaveProperty('images')
    expect(plain.twitter).toEqual({
      card: 'summary_large_image',
      title: 'A',
      description: undefined,
    })

    const full = pageMetadata({
      path: '/conteudos/a',
      title: 'A',
      description: 'B',
      settings,
      type: 'article',
      card: 'summary',
      noindex: true,
      shareImage: '/share.png',
      feed: true,
      article: { publishedTime: '2026-01-01' },
    })
    expect(full.robots).toEqual({ index: false, follow: true })
    expect(full.alternates?.types).toEqual({
      'application/rss+xml': [{ url: '/conteudos/feed.xml', title: 'Vigia — Conteúdos' }],
    })
    expect(full.openGraph).toMatchObject({
      type: 'article',
      publishedTime: '2026-01-01',
      images: [{ url: '/share.png', width: 1200, height: 630 }],
    })
    expect(full.twitter).toMatchObject({ card: 'summary', images: ['/share.png'] })
  })
})

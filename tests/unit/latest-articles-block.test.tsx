// @vitest-environment jsdom
// jsdom only to parse the server-rendered HTML; the block renders with react-dom/server.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import { RenderBlocks } from '@/components/blocks/render-blocks'
import type { CampaignPage } from '@/lib/content'
import { queryDataset } from '@/lib/content/bundled'
import { CAMPAIGN_PAGE_QUERY } from '@/sanity/lib/queries'

import { bundledDocuments } from './content-support'

/** The bundled campaign page with these blocks in place of its own, as the page query gives it. */
async function pageWith(blocks: unknown[]) {
  const documents = bundledDocuments()
  const page = documents.find((doc) => doc._type === 'campaignPage') as unknown as {
    blocks: unknown[]
  }
  page.blocks = blocks
  return queryDataset<CampaignPage>(CAMPAIGN_PAGE_QUERY, { slug: 'onibus-rodoviarios' }, documents)
}

function render(page: CampaignPage) {
  const container = document.createElement('div')
  container.innerHTML = renderToString(
    <RenderBlocks blocks={page.blocks} context={{ settings: null, pageSlug: 'x' }} />,
  )
  return container
}

describe('the latest-articles block', () => {
  it('shows the newest N articles as links, and a link to the whole listing', async () => {
    const html = render(
      await pageWith([{ _type: 'latestArticlesBlock', _key: 'a', heading: 'Conteúdos', count: 2 }]),
    )
    expect(html.querySelector('h2')?.textContent).toBe('Conteúdos')
    expect([...html.querySelectorAll('h3 a')].map((link) => link.getAttribute('href'))).toEqual([
      '/conteudos/lgpd-camera-na-cabine',
      '/conteudos/protocolo-de-resposta-apos-alerta',
    ])
    expect(html.querySelector('a[href="/conteudos"]')?.textContent).toBe('Ver todos os conteúdos')
  })

  it('keeps to one category when one is chosen, and links to its page', async () => {
    const html = render(
      await pageWith([
        {
          _type: 'latestArticlesBlock',
          _key: 'b',
          heading: 'Sobre fadiga',
          count: 6,
          category: { _type: 'reference', _ref: 'category-fadiga-e-seguranca' },
        },
      ]),
    )
    expect(html.querySelectorAll('h3 a')).toHaveLength(2)
    expect(html.querySelector('a[href="/conteudos/categoria/fadiga-e-seguranca"]')).not.toBeNull()
  })

  it('renders nothing when there is no article to show', async () => {
    const page = await pageWith([
      {
        _type: 'latestArticlesBlock',
        _key: 'c',
        heading: 'Vazio',
        count: 3,
        category: { _type: 'reference', _ref: 'categoria-sem-artigos' },
      },
    ])
    expect(render(page).innerHTML).toBe('')
  })
})

// @vitest-environment jsdom
// jsdom only to parse the server-rendered HTML; the blocks render with react-dom/static, which
// waits for the calculator's lazily loaded form as the server does.
import { prerender } from 'react-dom/static'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { faqJsonLd } from '@/components/blocks/faq/json-ld'
import { RenderBlocks } from '@/components/blocks/render-blocks'
import type { CampaignPage } from '@/lib/content'
import { queryDataset } from '@/lib/content/bundled'
import { CAMPAIGN_PAGE_QUERY } from '@/sanity/lib/queries'

import { bundledDocuments } from './content-support'

describe('rendering blocks', () => {
  const documents = bundledDocuments()
  const load = async (slug = 'onibus-rodoviarios') => {
    const page = await queryDataset<CampaignPage>(CAMPAIGN_PAGE_QUERY, { slug }, documents)
    // The form block is a client island with a Server Action, covered end to end.
    const blocks = (page.blocks ?? []).filter((block) => block._type !== 'demoFormBlock')
    return { blocks }
  }
  const render = async (blocks: Array<{ _key: string; _type: string }>) => {
    const { prelude } = await prerender(
      <RenderBlocks blocks={blocks} context={{ settings: null, pageSlug: 'onibus-rodoviarios' }} />,
    )
    const container = document.createElement('div')
    container.innerHTML = await new Response(prelude).text()
    return container
  }

  afterEach(() => vi.restoreAllMocks())

  it('skips a block type it does not know with one log line, and renders the rest', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { blocks } = await load()
    const unknown = { _key: 'novo', _type: 'videoBlock' }
    const html = await render([blocks[0]!, unknown, ...blocks.slice(1)])
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toMatch(/skipped block novo of unknown type "videoBlock"/)
    expect(html.querySelector('h1')?.textContent).toBe(
      'Motoristas de ônibus alertas do embarque ao desembarque',
    )
    expect(html.querySelectorAll('section').length).toBe(blocks.length)
  })

  // Every block type has a sample on a bundled campaign page (tests/unit/block-registry.test.ts):
  // each renders as one section headed by its own heading, with more in it than the heading.
  it.each(
    documents.flatMap((doc) =>
      doc._type === 'campaignPage' ? [(doc.slug as { current: string }).current] : [],
    ),
  )(
    'renders each block of the bundled page /p/%s as a section headed by its heading',
    async (slug) => {
      const { blocks } = await load(slug)
      expect(blocks.length).toBeGreaterThan(0)
      for (const block of blocks as Array<{
        _key: string
        _type: string
        [field: string]: unknown
      }>) {
        const html = await render([block])
        const sections = html.querySelectorAll('section')
        expect(sections.length, block._type).toBe(1)
        // A featured material is headed by the material's own title.
        const heading = String(
          block.headline ?? block.heading ?? (block.material as { title?: string } | null)?.title,
        )
        expect(sections[0]!.querySelector('h1, h2')?.textContent, block._type).toBe(heading)
        expect(sections[0]!.textContent!.length, block._type).toBeGreaterThan(heading.length + 50)
      }
    },
  )

  it('never renders a prototype key as a component', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect((await render([{ _key: 'x', _type: 'constructor' }])).innerHTML).toBe('')
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('publishes FAQPage structured data with exactly the visible questions and answers', async () => {
    const { blocks } = await load()
    const faq = blocks.find((block) => block._type === 'faqBlock')!
    const html = await render([faq])
    const data = JSON.parse(html.querySelector('script[type="application/ld+json"]')!.textContent!)
    const visible = [...html.querySelectorAll('h3')].map((question) => ({
      '@type': 'Question',
      name: question.textContent,
      acceptedAnswer: { '@type': 'Answer', text: question.nextElementSibling?.textContent },
    }))
    expect(visible.length).toBe(5)
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: visible,
    })
  })

  it('leaves half-written questions out of both the page and the structured data', async () => {
    const items = [
      { _key: 'a', question: 'Pergunta?', answer: 'Resposta.' },
      { _key: 'b', question: 'Sem resposta?', answer: null },
      { _key: 'c', question: '  ', answer: 'Sem pergunta.' },
    ]
    expect(faqJsonLd(items).mainEntity.map((entry) => entry.name)).toEqual(['Pergunta?'])
    const html = await render([{ _key: 'f', _type: 'faqBlock', heading: 'FAQ', items } as never])
    expect([...html.querySelectorAll('h3')].map((h) => h.textContent)).toEqual(['Pergunta?'])
  })
})

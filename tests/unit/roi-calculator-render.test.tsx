// The savings calculator as the server renders it (the home page's ROI block and the campaign
// block), i.e. what a visitor without JavaScript gets. Rendered with react-dom/static, which
// waits for the island's lazily loaded form as the server does; parsed with jsdom.
import { prerender } from 'react-dom/static'
import type { ReactNode } from 'react'
import { describe, expect, it } from 'vitest'

import { RenderBlocks } from '@/components/blocks/render-blocks'
import { Benefits } from '@/components/sections/benefits'
import type { CampaignPage } from '@/lib/content'
import { queryDataset } from '@/lib/content/bundled'
import { CAMPAIGN_PAGE_QUERY, ROI_CALCULATOR_QUERY } from '@/sanity/lib/queries'
import type { ROI_CALCULATOR_QUERY_RESULT } from '@/sanity/types'

import { bundledDocuments, queryPage } from './content-support'

const documents = bundledDocuments()
const calculator = await queryDataset<ROI_CALCULATOR_QUERY_RESULT>(
  ROI_CALCULATOR_QUERY,
  {},
  documents,
)
const { page } = await queryPage(documents)

// jsdom ships no type declarations; only its parser is used here.
const { JSDOM } = (await import('jsdom' as string)) as {
  JSDOM: new (html: string) => { window: { document: Document } }
}

async function render(node: ReactNode) {
  const { prelude } = await prerender(node)
  const html = await new Response(prelude).text()
  return new JSDOM(`<body>${html}</body>`).window.document
}

const text = (element: Element | null | undefined) =>
  (element?.textContent ?? '')
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()

function expectCalculator(document: Document) {
  const form = document.querySelector('form[aria-label="Calculadora de economia"]')!
  expect(form).not.toBeNull()
  // A real form: a GET to the server's own route, no JavaScript needed.
  expect(form.getAttribute('action')).toBe('/calculadora')
  expect(form.getAttribute('method')).toBe('get')
  const label = (input: Element) => text(document.querySelector(`label[for="${input.id}"]`))
  const inputs = [...form.querySelectorAll('input')]
  expect(inputs.map((input) => input.getAttribute('name'))).toEqual(['frota', 'sinistros', 'custo'])
  expect(inputs.map(label)).toEqual([
    'Veículos na frota',
    'Sinistros por ano (opcional)',
    'Custo médio de um sinistro, em R$ (opcional)',
  ])
  expect(inputs[0]!.getAttribute('value')).toBe('50')
  // The estimate for the reference fleet is in the HTML, in an <output>: the page's claims.
  const output = form.querySelector('output')!
  expect(output.getAttribute('aria-live')).toBe('polite')
  expect(text(output)).toContain('Economia estimada por ano R$ 150 mil')
  expect(text(output)).toContain('Payback 6 meses')
  expect(text(output)).toContain('ROI em 2 anos 300%')
  expect(text(output)).toContain('Investimento estimado: R$ 75 mil para 50 veículos')
  // "Receber a análise completa" goes, without JavaScript, to the server's answer and its form.
  const analysis = [...form.querySelectorAll('button')].find(
    (button) => text(button) === 'Receber a análise completa',
  )!
  expect(analysis.getAttribute('type')).toBe('submit')
  expect(analysis.getAttribute('formaction')).toBe('/calculadora#contato')
  // "Como calculamos": every assumption with its value and its note.
  const details = [...document.querySelectorAll('details')].find((element) =>
    text(element.querySelector('summary')).startsWith('Como calculamos'),
  )!
  expect(details).toBeDefined()
  const listed = [...details.querySelectorAll('li')].map(text)
  expect(listed.map((item) => item.split('. ')[0])).toEqual([
    'Investimento por veículo, pago no início: R$ 1.500',
    'Sinistros por veículo por ano: 0,2',
    'Custo médio de um sinistro: R$ 25.000',
    'Sinistros evitados: 60%',
  ])
  for (const item of listed)
    expect(item.toLowerCase()).toContain('exemplo a confirmar com a equipe de produto')
}

describe('the savings calculator, server-rendered', () => {
  it('sits in the home page’s ROI block, under the claims it reproduces', async () => {
    const document = await render(
      <Benefits beneficios={page?.beneficios ?? null} calculator={calculator} />,
    )
    const section = document.querySelector('section#beneficios')!
    expect(section).not.toBeNull()
    expectCalculator(document)
    expect(text(section.querySelector('h4'))).toBe('Calcule a economia da sua frota')
  })

  it('is a campaign-page block with its own heading', async () => {
    const campaign = await queryDataset<CampaignPage>(
      CAMPAIGN_PAGE_QUERY,
      { slug: 'onibus-rodoviarios' },
      documents,
    )
    const block = {
      _key: 'calculo',
      _type: 'roiCalculatorBlock',
      eyebrow: 'Economia',
      heading: 'Quanto a sua frota pode economizar',
      intro: null,
      calculator,
    }
    const document = await render(
      <RenderBlocks
        blocks={[campaign.blocks![0]!, block]}
        context={{ settings: null, pageSlug: 'onibus-rodoviarios' }}
      />,
    )
    const section = document.querySelector('section#bloco-calculo')!
    expect(text(section.querySelector('h2'))).toBe('Quanto a sua frota pode economizar')
    expect(text(section.querySelector('h3'))).toBe('Calcule a economia da sua frota')
    expectCalculator(document)
  })

  it('shows the claims without a calculator when an assumption is missing', async () => {
    const broken = { ...calculator!, incidentCost: { value: null, note: null } }
    const document = await render(
      <Benefits beneficios={page?.beneficios ?? null} calculator={broken} />,
    )
    expect(document.querySelector('form')).toBeNull()
    expect(text(document.querySelector('section#beneficios'))).toContain('R$ 150 mil')
  })
})

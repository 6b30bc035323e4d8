import { describe, expect, it } from 'vitest'

import { parseDataset, queryDataset } from '@/lib/content/bundled'
import { ICON_NAMES } from '@/sanity/lib/icon-names'
import { LANDING_PAGE_QUERY } from '@/sanity/lib/queries'
import type { LANDING_PAGE_QUERY_RESULT } from '@/sanity/types'

import { BUNDLED_NDJSON, bundledDocuments, documentById, queryPage } from './content-support'

const SECTION_IDS = ['sobre', 'como-funciona', 'tecnologia', 'beneficios', 'contato']

const filled = expect.stringMatching(/\S/)
const claimShape = { _id: filled, value: filled, label: filled }
const cardShape = {
  _key: filled,
  icon: expect.toBeOneOf([...ICON_NAMES]),
  title: filled,
  description: filled,
}

const { settings, page } = await queryPage(bundledDocuments())

describe('SITE_SETTINGS_QUERY over the bundled dataset', () => {
  it('gives the brand block, the tagline and the header call to action', () => {
    expect(settings?.brandName).toBe('Vigia')
    expect(settings?.tagline).toBe('Fleet Safety Technology')
    expect(settings?.headerCta).toBe('Solicitar Demo')
  })

  it('gives the five navigation entries, one per section anchor, in page order', () => {
    expect(settings?.navigation?.map((item) => [item.label, item.anchor])).toEqual([
      ['Sobre', 'sobre'],
      ['Como Funciona', 'como-funciona'],
      ['Tecnologia', 'tecnologia'],
      ['Benefícios', 'beneficios'],
      ['Contato', 'contato'],
    ])
    expect(settings?.navigation?.map((item) => item.anchor)).toEqual(SECTION_IDS)
  })

  it('gives every contact detail the contact section shows', () => {
    const contact = settings?.contact
    expect(contact?.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i)
    expect(contact?.phone).toMatch(/^\(\d{2}\) \d{4,5}-\d{4}$/)
    expect(contact?.hours).toMatch(/segunda a sexta/i)
    expect(contact?.hours).toMatch(/8h.*18h/)
    // wa.me wants the full international number, digits only.
    expect(contact?.whatsappNumber).toMatch(/^55\d{10,11}$/)
    expect(contact?.whatsappGreeting).toMatch(/Vigia/)
    expect(contact?.location).toBe('São José dos Campos, SP')
    expect(contact?.coverage).toMatch(/todo o Brasil/i)
  })

  it('gives the footer four legal links to the pages, two social placeholders, the SEO texts', () => {
    expect(settings?.footer?.legalLinks?.map((link) => [link.label, link.href])).toEqual([
      [expect.stringMatching(/privacidade/i), '/privacidade'],
      [expect.stringMatching(/termos de uso/i), '/termos'],
      ['LGPD', '/lgpd'],
      [expect.stringMatching(/acessibilidade/i), '/acessibilidade'],
    ])
    expect(settings?.footer?.socialLinks).toHaveLength(2)
    expect(settings?.footer?.socialLinks?.every((link) => link.platform && link.href === '#')).toBe(
      true,
    )
    expect(settings?.seo?.title).toMatch(/\S/)
    expect(settings?.seo?.description).toMatch(/\S/)
  })
})

describe('LANDING_PAGE_QUERY over the bundled dataset', () => {
  it('gives the hero its texts, both calls to action and three resolved statistics', () => {
    expect(page?.hero).toMatchObject({
      headline: filled,
      description: filled,
      primaryCta: 'Solicitar Demonstração',
      secondaryCta: 'Como Funciona',
    })
    expect(page?.hero?.stats).toEqual([
      expect.objectContaining({ ...claimShape, value: '90%' }),
      expect.objectContaining({ ...claimShape, value: '24/7' }),
      expect.objectContaining({ ...claimShape, value: '100%' }),
    ])
  })

  it('gives sobre its heading and three points', () => {
    expect(page?.sobre?.heading).toMatch(/\S/)
    expect(page?.sobre?.points).toHaveLength(3)
    for (const point of page?.sobre?.points ?? []) expect(point).toMatchObject(cardShape)
  })

  it('gives como-funciona the four steps in order', () => {
    expect(page?.comoFunciona?.heading).toMatch(/\S/)
    expect(page?.comoFunciona?.steps?.map((step) => step.title)).toEqual([
      'Detecção',
      'Análise',
      'Ação',
      'Resolução',
    ])
    for (const step of page?.comoFunciona?.steps ?? []) expect(step).toMatchObject(cardShape)
  })

  it('gives tecnologia six cards and a specification panel of resolved claims', () => {
    expect(page?.tecnologia?.heading).toMatch(/\S/)
    expect(page?.tecnologia?.cards).toHaveLength(6)
    for (const card of page?.tecnologia?.cards ?? []) expect(card).toMatchObject(cardShape)
    expect(page?.tecnologia?.specTitle).toMatch(/\S/)
    expect(page?.tecnologia?.specs?.length).toBeGreaterThanOrEqual(6)
    for (const spec of page?.tecnologia?.specs ?? []) expect(spec).toMatchObject(claimShape)
  })

  it('gives beneficios six cards, the ROI block and the three markets', () => {
    const beneficios = page?.beneficios
    expect(beneficios?.heading).toMatch(/\S/)
    expect(beneficios?.cards).toHaveLength(6)
    for (const card of beneficios?.cards ?? []) {
      expect(card).toMatchObject(cardShape)
      // A card's figure is optional, but one that is set must resolve to a claim.
      if (card.claim !== null && card.claim !== undefined)
        expect(card.claim).toMatchObject(claimShape)
    }
    expect(beneficios?.roiTitle).toMatch(/\S/)
    expect(beneficios?.roiFigures?.map((claim) => claim.value)).toEqual([
      '6 meses',
      '300%',
      'R$ 150 mil',
    ])
    for (const claim of beneficios?.roiFigures ?? []) expect(claim).toMatchObject(claimShape)
    expect(beneficios?.marketsTitle).toBe('Mercados Atendidos')
    expect(beneficios?.markets?.map((market) => market.name)).toEqual([
      expect.stringMatching(/cargas/i),
      expect.stringMatching(/ônibus intermunicipais/i),
      expect.stringMatching(/aplicativo/i),
    ])
    expect(beneficios?.markets?.[2]?.badge).toMatch(/futura/i)
    for (const market of beneficios?.markets ?? []) {
      expect(market).toMatchObject({
        _key: filled,
        icon: expect.toBeOneOf([...ICON_NAMES]),
        description: filled,
      })
    }
  })

  it('gives contato its heading, the four offers and the WhatsApp call to action', () => {
    const contato = page?.contato
    expect(contato).toMatchObject({
      heading: filled,
      formTitle: filled,
      detailsTitle: filled,
      offerTitle: filled,
    })
    expect(contato?.whatsappCta).toMatch(/WhatsApp/)
    expect(contato?.offers).toEqual([
      expect.stringMatching(/demonstração personalizada/i),
      expect.stringMatching(/ROI/),
      expect.stringMatching(/proposta comercial/i),
      expect.stringMatching(/suporte técnico/i),
    ])
  })
})

describe('drafts', () => {
  const publishedHeadline = documentById<{ hero: { headline: string } }>(
    bundledDocuments(),
    'landingPage',
  ).hero.headline

  const withDrafts = [
    BUNDLED_NDJSON.trimEnd(),
    JSON.stringify({
      _id: 'drafts.landingPage',
      _type: 'landingPage',
      hero: { headline: 'RASCUNHO' },
    }),
    JSON.stringify({
      _id: 'drafts.claim-accident-reduction',
      _type: 'claim',
      value: '99%',
      label: 'Rascunho',
    }),
    JSON.stringify({
      _id: 'drafts.claim-only-draft',
      _type: 'claim',
      value: '1%',
      label: 'Só rascunho',
    }),
    JSON.stringify({ _id: 'versions.r1.siteSettings', _type: 'siteSettings', tagline: 'Versão' }),
  ].join('\n')

  it('are dropped when the dataset is parsed', () => {
    const ids = parseDataset(withDrafts).map((doc) => doc._id)
    expect(ids.filter((id) => id.startsWith('drafts.') || id.startsWith('versions.'))).toEqual([])
    expect(ids).toHaveLength(bundledDocuments().length)
  })

  it('never reach the page content', async () => {
    const published = await queryPage(parseDataset(withDrafts))
    expect(published.page?.hero?.headline).toBe(publishedHeadline)
    expect(published.page?.hero?.stats?.[0]?.value).toBe('90%')
    expect(published.settings?.tagline).toBe('Fleet Safety Technology')
    const claims = await queryDataset<string[]>(
      '*[_type == "claim"]._id',
      {},
      parseDataset(withDrafts),
    )
    expect(claims).not.toContain('drafts.claim-only-draft')
    expect(claims.some((id) => id.startsWith('drafts.'))).toBe(false)
  })

  it('are dropped on the path the site itself takes (queryDataset reading the bundled file)', async () => {
    expect(await queryDataset<LANDING_PAGE_QUERY_RESULT>(LANDING_PAGE_QUERY)).toEqual(page)
    const ids = await queryDataset<string[]>('*[]._id')
    expect(ids.filter((id) => id.startsWith('drafts.'))).toEqual([])
  })
})

// A variant-able field is a declaration (docs/experiments.md): the CTA band's button, the second
// block to declare one, is served per variant, previewed, reviewable and made the default as the
// hero's fields are, through the same generic code. The variant's wording is the site's own.
import { describe, expect, it } from 'vitest'

import { queryDataset } from '@/lib/content/bundled'
import { blocksWithVariant, previewVariant } from '@/lib/experiments/variants'
import { REVIEW_VARIANTS_QUERY, variantLinks } from '@/sanity/actions/review-link'
import { promoteVariantMutations, type PageDoc } from '@/sanity/lib/experiment-actions'
import { CAMPAIGN_PAGE_QUERY } from '@/sanity/lib/queries'
import type { CAMPAIGN_PAGE_QUERY_RESULT } from '@/sanity/types'

import { bundledDocuments, documentById } from './content-support'

const PAGE_ID = 'campaignPage-onibus-rodoviarios'

/** The bundled bus page, its CTA band varied by the bundled experiment; the hero's entries kept or not. */
function dataset({ heroVariants = true } = {}) {
  const documents = bundledDocuments()
  const page = documentById<{ blocks: Record<string, unknown>[] }>(documents, PAGE_ID)
  const band = page.blocks.find((block) => block._type === 'ctaBandBlock')!
  band.experimentVariants = [
    {
      _key: 'tempo-real',
      _type: 'ctaBandVariant',
      experiment: { _type: 'reference', _ref: 'experiment-titulo-onibus', _weak: true },
      variant: 'tempo-real',
      ctaLabel: 'Como Funciona',
      ctaHref: '#bloco-etapas',
    },
  ]
  if (!heroVariants)
    delete page.blocks.find((block) => block._type === 'heroBlock')!.experimentVariants
  return { documents, page: page as unknown as PageDoc }
}

async function shown(variant: string) {
  const page = await queryDataset<CAMPAIGN_PAGE_QUERY_RESULT>(
    CAMPAIGN_PAGE_QUERY,
    { slug: 'onibus-rodoviarios' },
    dataset().documents,
  )
  const blocks = blocksWithVariant(page!.blocks, 'titulo-onibus', variant)
  type Block = (typeof blocks)[number]
  const of = <T extends Block['_type']>(type: T) =>
    blocks.find((block): block is Extract<Block, { _type: T }> => block._type === type)
  return { hero: of('heroBlock'), band: of('ctaBandBlock') }
}

describe('a CTA band button declared variant-able', () => {
  it('is served per variant, beside the hero’s own variant, and as it is to the control', async () => {
    const variant = await shown('tempo-real')
    expect(variant.band).toMatchObject({
      primaryCta: { label: 'Como Funciona', href: '#bloco-etapas' },
    })
    expect(variant.band).not.toHaveProperty('experimentVariants')
    expect(variant.hero?.headline).toBe('Fadiga detectada em tempo real, antes do acidente')
    const control = await shown('controle')
    expect(control.band).toMatchObject({
      primaryCta: { label: 'Solicitar Demonstração', href: '#contato' },
    })
    expect(control.hero?.headline).not.toBe(variant.hero?.headline)
  })

  it('is previewed with ?variante=', async () => {
    const { experiment, variant } = previewVariant('titulo-onibus/tempo-real')
    expect(experiment).toBe('titulo-onibus')
    expect((await shown(variant)).band?.primaryCta?.label).toBe('Como Funciona')
  })

  it('gets a review link when only the band varies, one link a variant however many blocks vary', async () => {
    for (const heroVariants of [false, true]) {
      const found = await queryDataset<Parameters<typeof variantLinks>[1]>(
        REVIEW_VARIANTS_QUERY,
        { id: PAGE_ID },
        dataset({ heroVariants }).documents,
      )
      expect(variantLinks('https://site/revisao/t', found).map((link) => link.href)).toEqual([
        'https://site/revisao/t?variante=titulo-onibus/tempo-real',
      ])
    }
  })

  it('becomes the page’s own with the hero’s fields when the variant is made the default', () => {
    const result = promoteVariantMutations({
      experiment: { _id: 'experiment-titulo-onibus', _type: 'experiment', _rev: 'r1' },
      page: { ...dataset().page, _rev: 'p1' },
      variant: 'tempo-real',
      now: '2026-03-01T12:00:00Z',
    })
    if (!('mutations' in result)) throw new Error(result.problem)
    expect(result.mutations).toContainEqual({
      patch: {
        id: PAGE_ID,
        ifRevisionID: 'p1',
        set: {
          'blocks[_key=="destaque"].headline': 'Fadiga detectada em tempo real, antes do acidente',
          'blocks[_key=="chamada"].primaryCta.label': 'Como Funciona',
          'blocks[_key=="chamada"].primaryCta.href': '#bloco-etapas',
        },
        unset: [
          'blocks[_key=="destaque"].experimentVariants[_key=="tempo-real"]',
          'blocks[_key=="chamada"].experimentVariants[_key=="tempo-real"]',
        ],
      },
    })
  })
})

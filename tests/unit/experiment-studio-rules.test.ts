import { describe, expect, it } from 'vitest'

import { withVariant } from '@/lib/experiments/variants'
import {
  experimentOverlapMessage,
  runningChangesWarning,
  variantsProblem,
  type ExperimentDocument,
} from '@/lib/experiments/rules'

// What the Studio refuses or warns about in an experiment, and how a variant's values go over the
// hero's defaults.

const NOW = Date.parse('2026-12-01T12:00:00Z')
const variants = [
  { key: 'controle', label: 'Original', weight: 1 },
  { key: 'fadiga', label: 'Fadiga', weight: 1 },
]
const experiment = (overrides: Partial<ExperimentDocument> = {}): ExperimentDocument => ({
  _id: 'a',
  title: 'Título de ônibus',
  page: { _ref: 'campaign-onibus' },
  visibleFrom: '2026-11-30T00:00:00Z',
  visibleUntil: null,
  variants,
  ...overrides,
})

describe('the variants list', () => {
  it('takes two or three variants, the control first, with distinct slug keys', () => {
    expect(variantsProblem(variants)).toBeUndefined()
    expect(variantsProblem([...variants, { key: 'acidentes', weight: 2 }])).toBeUndefined()
    expect(variantsProblem(variants.slice(0, 1))).toMatch(/duas ou três/)
    expect(variantsProblem([...variants, { key: 'c' }, { key: 'd' }])).toMatch(/duas ou três/)
    expect(variantsProblem([...variants].reverse())).toMatch(/primeira variante/)
    expect(variantsProblem([variants[0], { key: 'Fadiga Nova' }])).toMatch(/não serve/)
    expect(variantsProblem([variants[0], variants[1], variants[1]])).toMatch(/chave diferente/)
    expect(variantsProblem(undefined)).toMatch(/duas ou três/)
  })
})

describe('one running experiment a page', () => {
  it('refuses a window that overlaps another experiment on the same page', () => {
    const other = experiment({ _id: 'b', title: 'Outro', visibleFrom: '2026-12-10T00:00:00Z' })
    expect(experimentOverlapMessage(experiment(), [other])).toMatch(/"Outro"/)
    // Ending before the other starts, or on another page: fine.
    expect(
      experimentOverlapMessage(experiment({ visibleUntil: '2026-12-10T00:00:00Z' }), [other]),
    ).toBeUndefined()
    expect(
      experimentOverlapMessage(experiment(), [{ ...other, page: { _ref: 'landingPage' } }]),
    ).toBeUndefined()
    // An ended one is no obstacle.
    expect(
      experimentOverlapMessage(experiment(), [
        experiment({ _id: 'c', visibleFrom: null, visibleUntil: '2026-11-29T00:00:00Z' }),
      ]),
    ).toBeUndefined()
  })
})

describe('editing a running experiment', () => {
  it('warns when its page, variants or weights change while it runs', () => {
    const published = experiment()
    expect(
      runningChangesWarning(published, experiment({ title: 'Outro nome' }), NOW),
    ).toBeUndefined()
    expect(
      runningChangesWarning(published, experiment({ page: { _ref: 'landingPage' } }), NOW),
    ).toMatch(/está no ar/)
    expect(
      runningChangesWarning(
        published,
        experiment({ variants: [variants[0]!, { ...variants[1]!, weight: 3 }] }),
        NOW,
      ),
    ).toMatch(/pesos/)
    // Not yet started, or never published: edit away.
    expect(
      runningChangesWarning(
        experiment({ visibleFrom: '2026-12-24T00:00:00Z' }),
        experiment({ page: { _ref: 'landingPage' } }),
        NOW,
      ),
    ).toBeUndefined()
    expect(runningChangesWarning(null, experiment(), NOW)).toBeUndefined()
  })
})

describe('a variant-able block as a variant shows it (its fragment projects `values` in its shape)', () => {
  const visual = { asset: { _id: 'image-default' }, alt: 'Painel' }
  const other = { asset: { _id: 'image-b' }, alt: 'Outro' }
  const hero = {
    headline: 'Original',
    description: 'Descrição original',
    primaryCta: { label: 'Agendar demonstração', href: '#contato' },
    visual,
    experimentVariants: [
      {
        experiment: 'titulo-onibus',
        variant: 'fadiga',
        values: {
          headline: 'Fadiga',
          description: null,
          primaryCta: { label: 'Ver como funciona' },
          visual: other,
        },
      },
      { experiment: 'outro', variant: 'fadiga', values: { headline: 'De outro experimento' } },
    ],
  }

  it('puts the variant values over the defaults, and keeps a default for an empty value', () => {
    expect(withVariant(hero, 'titulo-onibus', 'fadiga')).toEqual({
      headline: 'Fadiga',
      description: 'Descrição original',
      primaryCta: { label: 'Ver como funciona', href: '#contato' },
      visual: other,
    })
  })

  it('shows the defaults for the control, an unknown variant and no experiment', () => {
    const defaults = {
      headline: 'Original',
      description: 'Descrição original',
      primaryCta: hero.primaryCta,
      visual,
    }
    expect(withVariant(hero, 'titulo-onibus', 'controle')).toEqual(defaults)
    expect(withVariant(hero, 'titulo-onibus', 'acidentes')).toEqual(defaults)
    expect(withVariant(hero, undefined, 'fadiga')).toEqual(defaults)
  })

  it('replaces a string call to action (the home page projects its label as one)', () => {
    const entry = {
      experiment: 'x',
      variant: 'fadiga',
      values: { primaryCta: 'Ver como funciona' },
    }
    const home = { primaryCta: 'Agendar', experimentVariants: [entry] }
    expect(withVariant(home, 'x', 'fadiga')).toEqual({ primaryCta: 'Ver como funciona' })
    expect(withVariant(home, 'x', 'controle')).toEqual({ primaryCta: 'Agendar' })
  })
})

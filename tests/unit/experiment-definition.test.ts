import { describe, expect, it } from 'vitest'

import {
  experimentDefinitions,
  isRunningVariant,
  runningExperiment,
  type ExperimentDefinition,
  type ExperimentRow,
} from '@/lib/experiments/definition'
import { parseVariantId, variantId } from '@/lib/experiments/ids'

// The shared contract: which experiment runs on which page at a given instant, and which
// '<experiment>/<variant>' ids name a running variant (what the serving and the counting trust).

const NOW = Date.parse('2026-12-01T12:00:00Z')

const row = (overrides: Partial<ExperimentRow> = {}): ExperimentRow => ({
  key: 'titulo-onibus',
  title: 'Título da campanha de ônibus',
  goal: 'leads',
  visibleFrom: '2026-11-30T00:00:00Z',
  visibleUntil: null,
  page: { _type: 'campaignPage', slug: 'onibus' },
  variants: [
    { key: 'fadiga', label: 'Fadiga', weight: 1 },
    { key: 'controle', label: 'Original', weight: 1 },
  ],
  ...overrides,
})

describe('experiment definitions', () => {
  it('reads a row into a definition: the page path, the control first', () => {
    const [definition] = experimentDefinitions([row()])
    expect(definition).toEqual({
      key: 'titulo-onibus',
      title: 'Título da campanha de ônibus',
      pagePath: '/p/onibus',
      goal: 'leads',
      visibleFrom: '2026-11-30T00:00:00Z',
      visibleUntil: null,
      variants: [
        { key: 'controle', label: 'Original', weight: 1 },
        { key: 'fadiga', label: 'Fadiga', weight: 1 },
      ],
    })
    expect(
      experimentDefinitions([row({ page: { _type: 'landingPage', slug: null } })])[0],
    ).toMatchObject({ pagePath: '/' })
  })

  it('leaves out rows without a key, a page or a control', () => {
    expect(experimentDefinitions([row({ key: null })])).toEqual([])
    expect(experimentDefinitions([row({ key: 'Não Slug' })])).toEqual([])
    expect(experimentDefinitions([row({ page: null })])).toEqual([])
    expect(experimentDefinitions([row({ page: { _type: 'article', slug: 'x' } })])).toEqual([])
    expect(
      experimentDefinitions([
        row({
          variants: [
            { key: 'a', label: 'A', weight: 1 },
            { key: 'b', label: 'B', weight: 1 },
          ],
        }),
      ]),
    ).toEqual([])
  })

  it('makes and parses variant ids', () => {
    expect(variantId('titulo-onibus', 'controle')).toBe('titulo-onibus/controle')
    expect(parseVariantId('titulo-onibus/fadiga')).toEqual({
      experiment: 'titulo-onibus',
      variant: 'fadiga',
    })
    for (const bad of ['titulo-onibus', 'a/b/c', '/b', 'a/', 'A/b', 'a/b c'])
      expect(parseVariantId(bad)).toBeUndefined()
  })
})

describe('which experiment runs', () => {
  const definitions: ExperimentDefinition[] = experimentDefinitions([
    row(),
    row({
      key: 'home-antigo',
      page: { _type: 'landingPage', slug: null },
      visibleUntil: '2026-11-30T12:00:00Z',
    }),
    row({
      key: 'home-futuro',
      page: { _type: 'landingPage', slug: null },
      visibleFrom: '2026-12-24T00:00:00Z',
    }),
  ])

  it('finds the one inside its window on the page', () => {
    expect(runningExperiment(definitions, '/p/onibus', NOW)?.key).toBe('titulo-onibus')
    expect(runningExperiment(definitions, '/', NOW)).toBeUndefined()
    expect(runningExperiment(definitions, '/', Date.parse('2026-11-30T06:00:00Z'))?.key).toBe(
      'home-antigo',
    )
    expect(runningExperiment(definitions, '/', Date.parse('2026-12-24T00:00:00Z'))?.key).toBe(
      'home-futuro',
    )
    expect(runningExperiment(definitions, '/p/outra', NOW)).toBeUndefined()
  })

  it('accepts only variants of a running experiment', () => {
    expect(isRunningVariant(definitions, 'titulo-onibus/controle', NOW)).toBe(true)
    expect(isRunningVariant(definitions, 'titulo-onibus/fadiga', NOW)).toBe(true)
    expect(isRunningVariant(definitions, 'titulo-onibus/outra', NOW)).toBe(false)
    expect(isRunningVariant(definitions, 'home-antigo/controle', NOW)).toBe(false)
    expect(isRunningVariant(definitions, 'home-futuro/fadiga', NOW)).toBe(false)
    expect(isRunningVariant(definitions, 'nada/controle', NOW)).toBe(false)
    expect(isRunningVariant(definitions, 'lixo', NOW)).toBe(false)
  })

  it('serves the first by key when two overlap on one page, and counts only that one', () => {
    const both = experimentDefinitions([row({ key: 'zeta' }), row({ key: 'alfa' })])
    expect(runningExperiment(both, '/p/onibus', NOW)?.key).toBe('alfa')
    expect(isRunningVariant(both, 'zeta/fadiga', NOW)).toBe(false)
  })
})

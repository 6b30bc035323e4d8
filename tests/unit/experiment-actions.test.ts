import { readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { parseDataset } from '../../lib/content/bundled'
import {
  endExperimentMutations,
  experimentActionProblem,
  promoteVariantMutations,
  type ExperimentDoc,
  type PageDoc,
} from '../../sanity/lib/experiment-actions'

// The Studio's "Encerrar experimento" and "Tornar uma versão padrão" (sanity/actions/
// experiment-actions.tsx): the mutations they send, on the bundled experiment and on known pages.

const dataset = parseDataset(
  readFileSync(path.join(__dirname, '../../sanity/dataset/production.ndjson'), 'utf8'),
) as unknown as Array<Record<string, unknown> & { _id: string }>
const bundledExperiment = dataset.find(
  (doc) => doc._id === 'experiment-titulo-onibus',
) as ExperimentDoc
const bundledPage = dataset.find((doc) => doc._id === 'campaignPage-onibus-rodoviarios') as PageDoc

const NOW = '2026-11-28T15:00:00.000Z'

const experiment: ExperimentDoc = {
  _id: 'exp-home',
  _type: 'experiment',
  _rev: 'r1',
  page: { _ref: 'landingPage' },
  variants: [
    { key: 'controle', label: 'Original' },
    { key: 'imagem', label: 'Outra imagem' },
  ],
  visibleFrom: '2026-11-01T00:00:00.000Z',
  visibleUntil: null,
}

const image = { _type: 'image', asset: { _type: 'reference', _ref: 'image-abc-800x600-jpg' } }

const home: PageDoc = {
  _id: 'landingPage',
  _type: 'landingPage',
  _rev: 'p1',
  hero: {
    headline: 'Original',
    primaryCta: 'Solicitar Demonstração',
    experimentVariants: [
      { _key: 'v1', experiment: { _ref: 'exp-home' }, variant: 'imagem', visual: image },
      { _key: 'v2', experiment: { _ref: 'outro' }, variant: 'x', headline: 'De outro' },
    ],
  },
}

describe('experiment actions', () => {
  it('are refused, with a reason in Portuguese, for an unpublished or ended experiment', () => {
    expect(experimentActionProblem(null)).toMatch(/Publique o experimento/)
    expect(
      experimentActionProblem(
        { ...experiment, visibleUntil: '2026-11-02T00:00:00Z' },
        Date.parse(NOW),
      ),
    ).toBe('Este experimento já terminou.')
    expect(experimentActionProblem(experiment, Date.parse(NOW))).toBeUndefined()
    expect(experimentActionProblem(bundledExperiment, Date.parse(NOW))).toBeUndefined()
  })

  it('end the published experiment now, guarded by its revision and its draft’s absence, or publish its draft ended, guarded by both revisions', () => {
    // `create` fails when the draft exists (then nothing is written); the `delete` undoes it.
    const noDraft = [
      { create: { _id: 'drafts.exp-home', _type: 'experiment' } },
      { delete: { id: 'drafts.exp-home' } },
    ]
    expect(endExperimentMutations(experiment, null, NOW)).toEqual([
      ...noDraft,
      { patch: { id: 'exp-home', ifRevisionID: 'r1', set: { visibleUntil: NOW } } },
    ])
    // Published but not started yet: ended before its start would be a window the Studio refuses.
    expect(
      endExperimentMutations({ ...experiment, visibleFrom: '2027-01-01T00:00:00.000Z' }, null, NOW),
    ).toEqual([
      ...noDraft,
      {
        patch: {
          id: 'exp-home',
          ifRevisionID: 'r1',
          set: { visibleFrom: null, visibleUntil: NOW },
        },
      },
    ])
    const draft = {
      ...experiment,
      _id: 'drafts.exp-home',
      _rev: 'd1',
      _updatedAt: 'x',
      title: 'Novo nome',
      visibleFrom: '2027-01-01T00:00:00.000Z',
      // A reference to a document published since: strong once published, as Sanity's publish.
      owner: {
        _type: 'reference',
        _ref: 'person-a',
        _weak: true,
        _strengthenOnPublish: { type: 'person' },
      },
    }
    // Sanity's own publish pins the published document's revision with this patch.
    const lock = (id: string, rev: string) => ({
      patch: { id, ifRevisionID: rev, unset: ['_revision_lock_pseudo_field_'] },
    })
    expect(endExperimentMutations(experiment, draft, NOW)).toEqual([
      lock('exp-home', 'r1'),
      lock('drafts.exp-home', 'd1'),
      {
        createOrReplace: {
          _id: 'exp-home',
          _type: 'experiment',
          title: 'Novo nome',
          owner: { _type: 'reference', _ref: 'person-a' },
          page: experiment.page,
          variants: experiment.variants,
          // A start after the end would describe an experiment that never ran.
          visibleFrom: null,
          visibleUntil: NOW,
        },
      },
      { delete: { id: 'drafts.exp-home' } },
    ])
  })

  it('make the bundled variant (a headline only) the campaign page hero’s own, and end the experiment', () => {
    const result = promoteVariantMutations({
      experiment: bundledExperiment,
      page: { ...bundledPage, _rev: 'p9' },
      variant: 'tempo-real',
      now: NOW,
    })
    if (!('mutations' in result)) throw new Error(result.problem)
    expect(result.mutations).toEqual([
      // The page's draft must still be absent when the transaction runs, not only when read.
      { create: { _id: 'drafts.campaignPage-onibus-rodoviarios', _type: 'campaignPage' } },
      { delete: { id: 'drafts.campaignPage-onibus-rodoviarios' } },
      {
        patch: {
          id: 'campaignPage-onibus-rodoviarios',
          ifRevisionID: 'p9',
          set: {
            'blocks[_key=="destaque"].headline':
              'Fadiga detectada em tempo real, antes do acidente',
          },
          unset: ['blocks[_key=="destaque"].experimentVariants[_key=="tempo-real"]'],
        },
      },
      { create: { _id: 'drafts.experiment-titulo-onibus', _type: 'experiment' } },
      { delete: { id: 'drafts.experiment-titulo-onibus' } },
      {
        patch: {
          id: 'experiment-titulo-onibus',
          ifRevisionID: undefined,
          set: { visibleUntil: NOW },
        },
      },
    ])
  })

  it('copy an image variant into the home page hero, leaving other experiments’ entries', () => {
    const result = promoteVariantMutations({ experiment, page: home, variant: 'imagem', now: NOW })
    if (!('mutations' in result)) throw new Error(result.problem)
    expect(result.mutations[2]).toEqual({
      patch: {
        id: 'landingPage',
        ifRevisionID: 'p1',
        set: { 'hero.visual': image },
        unset: ['hero.experimentVariants[_key=="v1"]'],
      },
    })
  })

  it('write a button label where the page keeps it: the home page’s string, a campaign link’s label', () => {
    const withLabel = (page: PageDoc) =>
      promoteVariantMutations({
        experiment,
        page,
        variant: 'imagem',
        now: NOW,
      })
    const homeLabel = withLabel({
      ...home,
      hero: {
        ...home.hero,
        experimentVariants: [
          {
            _key: 'v1',
            experiment: { _ref: 'exp-home' },
            variant: 'imagem',
            ctaLabel: 'Quero ver',
          },
        ],
      },
    })
    expect('mutations' in homeLabel && homeLabel.mutations[2]).toMatchObject({
      patch: { set: { 'hero.primaryCta': 'Quero ver' } },
    })
    const campaign = withLabel({
      _id: 'campaignPage-x',
      _type: 'campaignPage',
      blocks: [
        {
          _key: 'h',
          _type: 'heroBlock',
          primaryCta: { label: 'Solicitar', href: '#contato' },
          experimentVariants: [
            {
              _key: 'v',
              experiment: { _ref: 'exp-home' },
              variant: 'imagem',
              ctaLabel: 'Quero ver',
            },
          ],
        },
      ],
    })
    expect('mutations' in campaign && campaign.mutations[2]).toMatchObject({
      patch: { set: { 'blocks[_key=="h"].primaryCta.label': 'Quero ver' } },
    })
  })

  it('refuse, in Portuguese, the default, a page with a draft, and a variant the page has no texts for', () => {
    const problem = (input: Partial<Parameters<typeof promoteVariantMutations>[0]>) => {
      const result = promoteVariantMutations({
        experiment,
        page: home,
        variant: 'imagem',
        now: NOW,
        ...input,
      })
      return 'problem' in result ? result.problem : undefined
    }
    expect(problem({ variant: 'controle' })).toMatch(/Encerrar experimento/)
    expect(problem({ pageDraft: { ...home, _id: 'drafts.landingPage' } })).toMatch(
      /alterações não publicadas/,
    )
    expect(problem({ variant: 'nenhuma' })).toMatch(/não tem os textos da versão "nenhuma"/)
    expect(problem({ page: null })).toMatch(/não está publicada/)
  })
})

import { describe, expect, it } from 'vitest'

import { bundledDocuments, collectReferences, queryPage } from './content-support'

const documents = bundledDocuments()
const claims = documents.filter((doc) => doc._type === 'claim') as Array<{
  _id: string
  value?: string
  label?: string
  sourceNote?: string
}>
const { page } = await queryPage(documents)

/**
 * SPEC section 9, "Marketing claims shown on the page", each with how its claim document reads
 * in Portuguese (decimal comma, "mil" for thousands). `value` must match the figure; `text` the
 * figure, label and source note together.
 */
const SPEC_CLAIMS: Array<{ spec: string; value: RegExp; text?: RegExp }> = [
  { spec: 'detection accuracy 98.5%', value: /^98,5\s?%$/, text: /precis/i },
  {
    spec: 'response time under 2 seconds',
    value: /^(<|menos de)\s?2\s?s(egundos)?$/i,
    text: /resposta/i,
  },
  { spec: 'availability 99.9%', value: /^99,9\s?%$/, text: /disponibilidade/i },
  { spec: 'monitoring 24/7', value: /^24\/7$/, text: /monitoramento/i },
  { spec: 'accident reduction up to 90%', value: /^(até )?90\s?%$/i, text: /acidentes/i },
  { spec: 'LGPD compliance 100%', value: /^100\s?%$/, text: /LGPD/ },
  {
    spec: 'savings of more than R$ 50k per year',
    value: /^(\+\s?)?R\$\s?50\s?(mil|k)\+?$/i,
    text: /ano/i,
  },
  { spec: 'average payback 6 months', value: /^6 meses$/, text: /payback/i },
  { spec: 'ROI of 300% over 2 years', value: /^300\s?%$/, text: /ROI.*2 anos/i },
  {
    spec: 'average annual savings of R$ 150k for a fleet of 50 vehicles',
    value: /^R\$\s?150\s?(mil|k)$/i,
    text: /50 veículos/,
  },
  {
    spec: 'driver well-being improvement above 95%',
    value: /^(\+\s?|>\s?)?95\s?%\+?$/,
    text: /bem-estar/i,
  },
  { spec: 'compatibility with Android 8.0 or later', value: /Android 8\.0\+?/, text: /compatib/i },
  { spec: 'AES-256 encryption', value: /AES-256/, text: /criptografia/i },
  { spec: 'HTTPS/TLS 1.3', value: /TLS 1\.3/, text: /HTTPS/ },
  { spec: 'RESTful APIs', value: /RESTful/, text: /API/ },
]

describe('claims', () => {
  it('every reference in the dataset points to an existing claim document (or an image asset)', () => {
    const byId = new Map(documents.map((doc) => [doc._id, doc]))
    const references = documents.flatMap((doc) =>
      collectReferences(doc).map((reference) => ({ ...reference, from: doc._id })),
    )
    expect(references.length).toBeGreaterThan(0)
    // An image's `asset` references the asset document the import made of its file; an article
    // references its author and categories, a latest-articles block its category; an experiment
    // its page, and a hero's variant its experiment; a material's file its file asset, and a
    // featured-material block its material.
    const pageType = (ref: string) => {
      const type = byId.get(ref)?._type
      return type === 'landingPage' || type === 'campaignPage' ? type : 'a page'
    }
    const expectedType = (at: string, from: string, ref: string) =>
      at === '.file.asset'
        ? 'sanity.fileAsset'
        : at.endsWith('.asset')
          ? 'sanity.imageAsset'
          : /\.blocks\[\d+\]\.material$|^\.material$/.test(at)
            ? 'material'
            : at === '.author'
              ? 'author'
              : /^\.categories\[\d+\]$|\]\.category$/.test(at)
                ? 'category'
                : /\.experimentVariants\[\d+\]\.experiment$/.test(at)
                  ? 'experiment'
                  : at === '.page' && byId.get(from)?._type === 'experiment'
                    ? pageType(ref)
                    : 'claim'
    const broken = references.filter(
      (reference) =>
        byId.get(reference.ref)?._type !==
        expectedType(reference.at, reference.from, reference.ref),
    )
    expect(broken).toEqual([])
  })

  it('every claim document has a value and a label', () => {
    for (const claim of claims) {
      expect(claim, claim._id).toMatchObject({
        value: expect.stringMatching(/\S/),
        label: expect.stringMatching(/\S/),
      })
    }
  })

  // The page references claims rather than repeating figures, so each SPEC figure must exist
  // once as a claim and be reachable from the landing page (hero, specs, ROI or a benefit card).
  const shownOnPage = new Set(
    collectReferences(documents.find((doc) => doc._id === 'landingPage')).map((r) => r.ref),
  )

  for (const expected of SPEC_CLAIMS) {
    it(`SPEC figure "${expected.spec}" is a claim the landing page shows`, () => {
      const matching = claims.filter(
        (claim) =>
          expected.value.test(claim.value ?? '') &&
          (!expected.text ||
            expected.text.test([claim.value, claim.label, claim.sourceNote].join(' '))),
      )
      expect(matching.map((claim) => claim._id)).toHaveLength(1)
      expect(shownOnPage.has(matching[0]!._id)).toBe(true)
    })
  }

  it('the hero statistics are the 90%, 24/7 and 100% claims', () => {
    expect(page?.hero?.stats?.map((claim) => claim.value)).toEqual(['90%', '24/7', '100%'])
  })

  it('a claim shown in several places is one document, so one edit changes every place', () => {
    const uses = collectReferences(documents.find((doc) => doc._id === 'landingPage')).filter(
      (reference) => reference.ref === 'claim-accident-reduction',
    )
    expect(uses.map((use) => use.at)).toEqual([
      expect.stringMatching(/^\.hero\.stats/),
      expect.stringMatching(/^\.beneficios\.cards/),
    ])
  })
})

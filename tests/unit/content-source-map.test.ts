import path from 'node:path'

import { createClient } from '@sanity/client'
import { vercelStegaDecode, vercelStegaSplit } from '@vercel/stega'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { LANDING_PAGE_QUERY } from '@/sanity/lib/queries'

import { loadNdjson, startContentLakeDouble } from '../support/content-lake-double.mjs'
import { contentSourceMap } from '../support/content-source-map.mjs'

// The double's Content Source Maps, read by @sanity/client's own stega encoding as a draft-mode
// fetch does (lib/content/sanity-client.ts): the Presentation test in studio-day.spec.ts clicks a
// headline through them, so a wrong path here is a click that lands on the wrong field.

const TOKEN = 'read-token'
let lake: Awaited<ReturnType<typeof startContentLakeDouble>>

beforeAll(async () => {
  const documents = loadNdjson(
    path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson'),
  )
  const home = documents.find((doc) => doc._id === 'landingPage')!
  const hero = home.hero as Record<string, unknown>
  lake = await startContentLakeDouble({
    port: 0,
    token: TOKEN,
    // A draft of the home page: its strings come from the draft, under its own id.
    documents: [
      ...documents,
      { ...home, _id: 'drafts.landingPage', hero: { ...hero, headline: 'Rascunho' } },
    ],
  })
})

afterAll(() => lake?.close())

/** Where the stega string sends an editor: the edit intent's id, type and path. */
function editTarget(value: unknown) {
  const { encoded } = vercelStegaSplit(String(value))
  if (!encoded) return undefined
  const { href } = vercelStegaDecode<{ href: string }>(encoded)!
  const params = new URL(href, 'http://studio').searchParams
  return { id: params.get('id'), type: params.get('type'), path: params.get('path') }
}

describe('the Content Lake double’s resultSourceMap', () => {
  it('sends each printed string of a draft-mode fetch back to its document and field', async () => {
    const client = createClient({
      projectId: 'testproj',
      dataset: 'production',
      apiVersion: '2025-01-01',
      apiHost: lake.url,
      useProjectHostname: false,
      useCdn: false,
      token: TOKEN,
    })
    const page = await client.fetch(
      LANDING_PAGE_QUERY,
      {},
      {
        perspective: 'drafts',
        stega: { enabled: true, studioUrl: '/studio' },
      },
    )
    expect(vercelStegaSplit(page!.hero!.headline!).cleaned).toBe('Rascunho')
    expect(editTarget(page!.hero!.headline)).toEqual({
      id: 'landingPage',
      type: 'landingPage',
      path: 'hero.headline',
    })
    // A dereferenced claim: its own document, its own field.
    const stat = page!.hero!.stats![0]!
    expect(editTarget(stat.label)).toMatchObject({ id: stat._id, type: 'claim', path: 'label' })
    // An item of a keyed array, by its key (withKeyArraySelector, which the client asks for).
    const point = page!.sobre!.points![0]!
    expect(editTarget(point.title)?.path).toBe(`sobre.points[_key=="${point._key}"].title`)
  })

  it('leaves unmapped a string two sources explain equally well, or none holds', () => {
    const documents = [
      { _id: 'a', _type: 'claim', label: 'Igual' },
      { _id: 'b', _type: 'claim', label: 'Igual' },
    ]
    const map = contentSourceMap({ one: 'Igual', label: 'Igual', other: 'Nenhum' }, documents)
    expect(map.mappings).toEqual({})
    expect(contentSourceMap({ x: { label: 'Igual' } }, documents.slice(0, 1))).toEqual({
      documents: [{ _id: 'a', _type: 'claim' }],
      paths: ["$['label']"],
      mappings: {
        "$['x']['label']": {
          type: 'value',
          source: { type: 'documentValue', document: 0, path: 0 },
        },
      },
    })
  })
})

import { readFileSync } from 'node:fs'
import path from 'node:path'

import {
  createSchema,
  pathToString,
  validateDocument,
  type SanityDocument,
  type Workspace,
} from 'sanity'
import { evaluate, parse } from 'groq-js'
import { describe, expect, it } from 'vitest'

import { schemaTypes } from '@/sanity/schema-types'

// The bundled default content must be content an editor could publish: run every document
// through the same validation the Studio runs before it lets an editor publish.

const DATASET_FILE = path.join(__dirname, '..', '..', 'sanity', 'dataset', 'production.ndjson')

const documents = readFileSync(DATASET_FILE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as SanityDocument)

// The Studio compiles the schema types the same way (createSchema); a schema error here would
// make the Studio refuse to start.
const schema = createSchema({ name: 'default', types: schemaTypes })

// validateDocument reads only the workspace's schema (and i18n, which falls back to English).
// The one rule that queries the Content Lake is the slug type's uniqueness check: answer it with
// the same GROQ over the bundled documents; any other query fails the test.
const workspace = { schema } as unknown as Workspace

function datasetClient(dataset: SanityDocument[]) {
  const client = {
    withConfig: () => client,
    fetch: async (query: string, params: Record<string, unknown>, options?: { tag?: string }) => {
      if (options?.tag !== 'validation.slug-is-unique')
        throw new Error(`No Content Lake in this test: a validation rule queried it (${query}).`)
      return (await evaluate(parse(query, { params }), { dataset, params })).get()
    },
  }
  return client
}

async function errorsOf(
  document: SanityDocument,
  existingIds = new Set(documents.map((d) => d._id)),
  dataset = documents,
  environment: 'cli' | 'studio' = 'cli',
) {
  const markers = await validateDocument({
    document,
    workspace,
    environment,
    // Non-weak references must point at a document that exists, as they would be in the Lake.
    getDocumentExists: async ({ id }) => existingIds.has(id),
    getClient: (() => datasetClient(dataset)) as never,
  })
  return markers
    .filter((marker) => marker.level === 'error')
    .map((marker) => `${document._id} ${pathToString(marker.path)}: ${marker.message}`)
}

describe('bundled dataset vs the Studio validation rules', () => {
  it('compiles the schema without errors', () => {
    const problems = (schema._validation ?? []).flatMap((group) =>
      group.problems.filter((problem) => problem.severity === 'error'),
    )
    expect(problems).toEqual([])
  })

  it('has a document type in the schema for every document', () => {
    const unknown = documents.filter((doc) => schema.get(doc._type)?.jsonType !== 'object')
    expect(unknown.map((doc) => `${doc._id} (${doc._type})`)).toEqual([])
  })

  it('keeps the singletons under the fixed ids the Studio and the site use', () => {
    for (const type of ['landingPage', 'siteSettings']) {
      expect(documents.filter((doc) => doc._type === type).map((doc) => doc._id)).toEqual([type])
    }
  })

  it.each(documents.map((doc) => [doc._id, doc] as const))(
    '%s passes every rule',
    async (_id, document) => {
      expect(await errorsOf(document)).toEqual([])
    },
  )
})

describe('the validation this test relies on', () => {
  const claim = documents.find((doc) => doc._type === 'claim')!
  const landingPage = documents.find((doc) => doc._id === 'landingPage')!

  it('rejects a figure too long for the layout', async () => {
    const errors = await errorsOf({ ...claim, value: '98,5% de precisão em todas as rotas' })
    expect(errors).toEqual([expect.stringMatching(/ value: .*16/)])
  })

  it('rejects a claim without its label', async () => {
    expect(await errorsOf({ ...claim, label: undefined })).toEqual([
      expect.stringContaining(' label: '),
    ])
  })

  it('rejects a reference to a claim that does not exist', async () => {
    const ids = new Set(documents.map((doc) => doc._id))
    ids.delete('claim-accuracy')
    const errors = await errorsOf(landingPage, ids)
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.join('\n')).toMatch(
      /tecnologia\.specs\[_key=="[^"]+"\]: Referenced document must be published/,
    )
  })

  type WithHero = SanityDocument & { hero: { visual: Record<string, unknown> } }

  it('rejects an image without alt text', async () => {
    const page = structuredClone(landingPage) as WithHero
    delete page.hero.visual.alt
    expect(await errorsOf(page)).toEqual([
      expect.stringMatching(/^landingPage hero\.visual\.alt: .*obrigatório/),
    ])
  })

  it('rejects an alt text too long to be read in one breath', async () => {
    const page = structuredClone(landingPage) as WithHero
    page.hero.visual.alt = 'Celular no painel. '.repeat(10)
    expect(await errorsOf(page)).toEqual([expect.stringMatching(/hero\.visual\.alt: .*160/)])
  })

  it('rejects a hero without its visual', async () => {
    const page = structuredClone(landingPage) as SanityDocument & { hero: { visual?: unknown } }
    delete page.hero.visual
    const errors = await errorsOf(page)
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.every((error) => error.startsWith('landingPage hero.visual'))).toBe(true)
  })
})

describe('the legal pages and the data-protection settings', () => {
  type Block = { _type: string; style?: string; children: Array<{ marks?: string[] }> }
  type Legal = SanityDocument & { slug: { current: string }; body: Block[] }
  const privacy = documents.find((doc) => doc._id === 'legalPage-privacidade') as Legal
  const settings = documents.find((doc) => doc._id === 'siteSettings')!

  it('bundles the four legal pages', () => {
    expect(
      documents
        .filter((doc) => doc._type === 'legalPage')
        .map((doc) => (doc as Legal).slug.current)
        .sort(),
    ).toEqual(['acessibilidade', 'lgpd', 'privacidade', 'termos'])
  })

  // Checked as the Studio checks before publishing: in the 'cli' environment Sanity adds an
  // unknown-fields check to every object-typed field (a slug is one) with .warning(), which turns
  // that field's whole rule, our errors included, into warnings.
  it('rejects a second page with the same slug', async () => {
    const copy = { ...structuredClone(privacy), _id: 'legalPage-copia' }
    expect(await errorsOf(copy, undefined, [...documents, copy], 'studio')).toEqual([
      expect.stringMatching(/^legalPage-copia slug: /),
    ])
  })

  it('rejects a slug the site already uses, or one that is not a path segment', async () => {
    for (const current of ['studio', 'Política', 'a/b']) {
      const page = { ...structuredClone(privacy), slug: { _type: 'slug', current } }
      expect(await errorsOf(page, undefined, documents, 'studio')).toEqual([
        expect.stringMatching(/ slug: /),
      ])
    }
  })

  it('allows only h2/h3 headings, lists, bold and links in the body', async () => {
    for (const change of [
      (body: Block[]) => (body[0]!.style = 'h1'),
      (body: Block[]) => (body[1]!.style = 'blockquote'),
      (body: Block[]) => (body[1]!.children[0]!.marks = ['em']),
      (body: Block[]) => body.push({ _type: 'image', children: [] }),
    ]) {
      const page = structuredClone(privacy)
      change(page.body)
      const errors = await errorsOf(page)
      expect(errors.length).toBeGreaterThan(0)
      expect(errors.every((error) => error.startsWith('legalPage-privacidade body'))).toBe(true)
    }
  })

  it('requires the last-updated date, the summary and the SEO description', async () => {
    const page = structuredClone(privacy) as Legal & Record<string, unknown>
    delete page.updatedAt
    delete page.summary
    delete page.seoDescription
    expect((await errorsOf(page)).map((error) => error.split(':')[0])).toEqual(
      expect.arrayContaining([
        'legalPage-privacidade updatedAt',
        'legalPage-privacidade summary',
        'legalPage-privacidade seoDescription',
      ]),
    )
  })

  it('checks the CNPJ check digits and refuses a placeholder legal link', async () => {
    const wrong = structuredClone(settings) as SanityDocument & {
      controller: { cnpj: string }
      footer: { legalLinks: Array<{ href: string }> }
    }
    wrong.controller.cnpj = '48.316.502/0001-53'
    wrong.footer.legalLinks[0]!.href = '#'
    expect(await errorsOf(wrong)).toEqual([
      expect.stringMatching(/^siteSettings controller\.cnpj: .*dígitos verificadores/),
      expect.stringMatching(/^siteSettings footer\.legalLinks: .*não "#"/),
    ])
  })

  it('requires the encarregado with a valid e-mail', async () => {
    const page = structuredClone(settings) as SanityDocument & {
      dataProtectionOfficer: { email: string }
    }
    page.dataProtectionOfficer.email = 'encarregado'
    expect(await errorsOf(page)).toEqual([
      expect.stringMatching(/^siteSettings dataProtectionOfficer\.email: /),
    ])
  })
})

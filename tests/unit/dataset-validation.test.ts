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
      if (!options?.tag?.startsWith('validation.'))
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
  level: 'error' | 'warning' = 'error',
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
    .filter((marker) => marker.level === level)
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

  it('invents no encarregado and no CNPJ: the Studio asks the company for both', async () => {
    const { controller, dataProtectionOfficer } = settings as SanityDocument & {
      controller: Record<string, unknown>
      dataProtectionOfficer: Record<string, unknown>
    }
    expect(controller.cnpj).toBeUndefined()
    expect(dataProtectionOfficer.name).toBeUndefined()
    const warnings = await errorsOf(settings, undefined, undefined, 'cli', 'warning')
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^siteSettings controller\.cnpj: Informe o CNPJ/),
        expect.stringMatching(/^siteSettings dataProtectionOfficer\.name: Informe o nome/),
      ]),
    )
    const filled = structuredClone(settings) as typeof settings & {
      controller: { cnpj: string }
      dataProtectionOfficer: { name: string }
    }
    filled.controller.cnpj = '11.222.333/0001-81'
    filled.dataProtectionOfficer.name = 'x'.repeat(121)
    expect(await errorsOf(filled)).toEqual([
      expect.stringMatching(/^siteSettings dataProtectionOfficer\.name: /),
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

describe('campaign pages and redirects: addresses and blocks', () => {
  type Page = SanityDocument & {
    slug: { _type: 'slug'; current: string }
    blocks: Array<{ _type: string; _key: string }>
  }
  const page = documents.find((doc) => doc._type === 'campaignPage') as Page
  const redirect = documents.find((doc) => doc._type === 'redirect')!
  const legalPage = documents.find((doc) => doc._type === 'legalPage')!

  const withSlug = (current: string, id = 'campaignPage-nova'): Page => ({
    ...structuredClone(page),
    _id: id,
    slug: { _type: 'slug', current },
  })
  // As the Studio checks before publishing (see the legal pages' slug tests above).
  const studioErrors = (doc: SanityDocument, dataset = [...documents, doc]) =>
    errorsOf(doc, new Set(dataset.map((d) => d._id)), dataset, 'studio')

  it('bundles one example page with at least five kinds of block, the FAQ and the form among them', () => {
    const kinds = new Set(page.blocks.map((block) => block._type))
    expect(kinds.size).toBeGreaterThanOrEqual(5)
    expect(kinds).toContain('faqBlock')
    expect(kinds).toContain('demoFormBlock')
  })

  describe('visibility window', () => {
    const fair = {
      visibleFrom: '2026-12-01T12:00:00.000Z',
      visibleUntil: '2026-12-03T21:00:00.000Z',
    }

    it('accepts a start and an end, either alone, and a redirect for outside the window', async () => {
      expect(await studioErrors({ ...withSlug('feira'), ...fair, hiddenRedirect: '/' })).toEqual([])
      expect(await studioErrors({ ...withSlug('feira'), visibleFrom: fair.visibleFrom })).toEqual(
        [],
      )
      expect(await studioErrors({ ...withSlug('feira'), visibleUntil: fair.visibleUntil })).toEqual(
        [],
      )
    })

    it('refuses a start after the end (or equal to it), saying why', async () => {
      for (const visibleUntil of ['2026-11-30T12:00:00.000Z', fair.visibleFrom]) {
        expect(
          await studioErrors({ ...withSlug('feira'), visibleFrom: fair.visibleFrom, visibleUntil }),
        ).toEqual([
          expect.stringMatching(
            /^campaignPage-nova visibleUntil: O fim precisa ser depois do início/,
          ),
        ])
      }
    })

    it('refuses a redirect that is not an address, or that leads to the page itself', async () => {
      expect(await studioErrors({ ...withSlug('feira'), hiddenRedirect: 'home' })).toEqual([
        expect.stringMatching(/^campaignPage-nova hiddenRedirect: Use um endereço do site/),
      ])
      expect(await studioErrors({ ...withSlug('feira'), hiddenRedirect: '/p/feira' })).toEqual([
        expect.stringMatching(/^campaignPage-nova hiddenRedirect: O endereço precisa ser outro/),
      ])
    })

    it('edits the dates in São Paulo time, with no time-zone switch', () => {
      const type = schema.get('campaignPage') as unknown as {
        fields: Array<{ name: string; type: { options?: Record<string, unknown> } }>
      }
      for (const name of ['visibleFrom', 'visibleUntil']) {
        const field = type.fields.find((f) => f.name === name)
        expect(field?.type.options, name).toMatchObject({
          displayTimeZone: 'America/Sao_Paulo',
          allowTimeZoneSwitch: false,
        })
      }
    })
  })

  it('accepts a new page at a free address', async () => {
    expect(await studioErrors(withSlug('fretamento-turismo'))).toEqual([])
  })

  it("refuses a legal page's slug, saying whose it is", async () => {
    expect(await studioErrors(withSlug('privacidade'))).toEqual([
      expect.stringMatching(/slug: .*página legal "Política de Privacidade"/),
    ])
  })

  it("refuses another campaign page's slug", async () => {
    expect(await studioErrors(withSlug('onibus-rodoviarios'))).toEqual([
      expect.stringMatching(/slug: .*página de campanha "Vigia para ônibus/),
    ])
  })

  it('refuses a legal page at a campaign page’s slug', async () => {
    const legal = {
      ...structuredClone(legalPage),
      _id: 'legalPage-nova',
      slug: { _type: 'slug', current: 'onibus-rodoviarios' },
    }
    expect(await studioErrors(legal)).toEqual([
      expect.stringMatching(/^legalPage-nova slug: .*página de campanha/),
    ])
  })

  it('refuses reserved paths and says what uses them', async () => {
    for (const [slug, why] of [
      ['studio', /Sanity Studio/],
      ['api', /rotas internas/],
      ['preview', /pré-visualização/],
      ['p', /prefixo das páginas de campanha/],
    ] as const) {
      expect(await studioErrors(withSlug(slug))).toEqual([expect.stringMatching(why)])
    }
  })

  it('refuses a slug that is not a path segment', async () => {
    for (const slug of ['Ônibus', 'a/b', '-x', 'x-']) {
      expect(await studioErrors(withSlug(slug))).toEqual([
        expect.stringMatching(/slug: .*minúsculas/),
      ])
    }
  })

  it('refuses a slug where a redirect starts, naming it', async () => {
    const dataset = [
      ...documents,
      {
        ...structuredClone(redirect),
        _id: 'redirect-p',
        from: '/p/antiga',
        to: '/p/onibus-rodoviarios',
      },
    ]
    const doc = withSlug('antiga')
    expect(await studioErrors(doc, [...dataset, doc])).toEqual([
      expect.stringMatching(/\/p\/antiga já redireciona para \/p\/onibus-rodoviarios/),
    ])
  })

  it('requires a hero first, one hero and one form at most', async () => {
    const [hero, ...rest] = page.blocks
    const form = page.blocks.find((block) => block._type === 'demoFormBlock')!
    for (const [blocks, message] of [
      [rest, /primeiro bloco precisa ser um Destaque/],
      [[hero!, { ...hero!, _key: 'outro' }, ...rest], /um só Destaque/],
      [[...page.blocks, { ...form, _key: 'outro' }], /um só Formulário/],
    ] as const) {
      const doc = { ...withSlug('teste'), blocks }
      expect(await studioErrors(doc as SanityDocument)).toEqual([
        expect.stringMatching(new RegExp(`^campaignPage-nova blocks: .*${message.source}`)),
      ])
    }
  })

  it('requires the SEO description and refuses an FAQ answer missing', async () => {
    const doc = withSlug('teste') as Page & { seo: Record<string, unknown> }
    delete doc.seo.description
    const faq = doc.blocks.find((block) => block._type === 'faqBlock') as unknown as {
      items: Array<{ answer?: string }>
    }
    delete faq.items[0]!.answer
    const errors = await studioErrors(doc)
    expect(errors.map((error) => error.split(':')[0])).toEqual(
      expect.arrayContaining([
        'campaignPage-nova seo.description',
        expect.stringMatching(
          /^campaignPage-nova blocks\[_key=="faq"\]\.items\[_key=="q1"\]\.answer/,
        ),
      ]),
    )
  })

  describe('redirects', () => {
    const make = (from: string, to: string, id = 'redirect-novo') =>
      ({ _id: id, _type: 'redirect', from, to, permanent: true }) as unknown as SanityDocument

    it('accepts a redirect to a page from a free path', async () => {
      expect(await studioErrors(make('/fretamento', '/p/onibus-rodoviarios'))).toEqual([])
    })

    it('refuses a loop onto itself', async () => {
      expect(await studioErrors(make('/volta', '/volta'))).toEqual([
        expect.stringMatching(/levaria a si mesmo/),
      ])
    })

    it('refuses a chain onto another redirect, and a loop through one', async () => {
      // /onibus → /p/onibus-rodoviarios exists in the bundle.
      expect(await studioErrors(make('/bus', '/onibus'))).toEqual([
        expect.stringMatching(
          /\/onibus já redireciona para \/p\/onibus-rodoviarios: aponte direto/,
        ),
      ])
      const cycle = [...documents, make('/p/x', '/onibus', 'redirect-x')]
      const closing = make('/p/onibus-rodoviarios', '/p/x')
      expect(await studioErrors(closing, [...cycle, closing])).toEqual([
        expect.stringMatching(/é a página de campanha/),
      ])
      const loop = [...documents, make('/a', '/b', 'redirect-a')]
      const back = make('/b', '/a')
      expect(await studioErrors(back, [...loop, back])).toEqual([
        expect.stringMatching(/\/a já redireciona para \/b: .*ciclo/),
      ])
    })

    it('refuses a chain into its start', async () => {
      // /x → /p/velha exists: a redirect from /p/velha would make /x a chain of two.
      const next = make('/p/velha', '/onibus-velho')
      const chained = [...documents, make('/x', '/p/velha', 'redirect-x')]
      expect(await studioErrors(next, [...chained, next])).toEqual([
        expect.stringMatching(/\/x já redireciona para \/p\/velha: mude aquele/),
      ])
    })

    it('refuses a destination that resolves to another host (issue 38), as the site does', async () => {
      for (const to of [
        '/.//evil.example/entrar',
        '/%2e//evil.example/entrar',
        '/a/..//evil.example/entrar',
      ]) {
        expect(await studioErrors(make('/entrar', to)), to).toEqual([
          expect.stringMatching(/caminho simples deste site/),
        ])
        expect(await studioErrors({ ...withSlug('feira'), hiddenRedirect: to }), to).toEqual([
          expect.stringMatching(/^campaignPage-nova hiddenRedirect: .*caminho simples deste site/),
        ])
      }
      // Dot segments that stay on the site are judged by where they land.
      expect(await studioErrors(make('/volta', '/x/../volta'))).toEqual([
        expect.stringMatching(/levaria a si mesmo/),
      ])
    })

    it('refuses a second redirect from the same path', async () => {
      expect(await studioErrors(make('/onibus', '/p/outra'))).toEqual([
        expect.stringMatching(/Já existe um redirecionamento de \/onibus/),
      ])
    })

    it('refuses starting at a live page or a reserved path, or a malformed one', async () => {
      expect(await studioErrors(make('/privacidade', '/p/onibus-rodoviarios'))).toEqual([
        expect.stringMatching(/página legal "Política de Privacidade", que continua no ar/),
      ])
      expect(await studioErrors(make('/studio', '/p/onibus-rodoviarios'))).toEqual([
        expect.stringMatching(/\/studio não pode ser usada: .*Sanity Studio/),
      ])
      expect(await studioErrors(make('/a/b/c', '/p/onibus-rodoviarios'))).toEqual([
        expect.stringMatching(/A origem é um caminho como/),
      ])
      expect(await studioErrors(make('/x', 'http://example.com'))).toEqual([
        expect.stringMatching(/O destino é um caminho do site/),
      ])
    })
  })
})

describe('articles, categories and authors', () => {
  type Article = SanityDocument & {
    slug: { _type: 'slug'; current: string }
    categories: Array<{ _ref: string }>
    author: { _ref: string }
    body: Array<{ _type: string; _key: string; claim?: { _ref: string } }>
  }
  const articles = documents.filter((doc) => doc._type === 'article') as Article[]
  const article = articles[0]!
  const withSlug = (current: string, id = 'article-novo'): Article => ({
    ...structuredClone(article),
    _id: id,
    slug: { _type: 'slug', current },
  })
  const studioErrors = (doc: SanityDocument, dataset = [...documents, doc]) =>
    errorsOf(doc, new Set(dataset.map((d) => d._id)), dataset, 'studio')

  it('bundles the three agreed articles, two of them in one category', () => {
    expect(articles.map((doc) => doc.slug.current).sort()).toEqual([
      'como-o-celular-detecta-fadiga',
      'lgpd-camera-na-cabine',
      'protocolo-de-resposta-apos-alerta',
    ])
    const perCategory = new Map<string, number>()
    for (const doc of articles)
      for (const category of doc.categories)
        perCategory.set(category._ref, (perCategory.get(category._ref) ?? 0) + 1)
    expect(Math.max(...perCategory.values())).toBe(2)
  })

  it('signs every bundled article by the company team, not an invented person', () => {
    const authors = new Set(articles.map((doc) => doc.author._ref))
    for (const id of authors) {
      expect(documents.find((doc) => doc._id === id)).toMatchObject({
        _type: 'author',
        kind: 'team',
      })
    }
  })

  it('shows figures only through claim documents', () => {
    const figures = articles.flatMap((doc) => doc.body.filter((b) => b._type === 'claimFigure'))
    expect(figures.length).toBeGreaterThan(0)
    for (const figure of figures)
      expect(documents.find((doc) => doc._id === figure.claim?._ref)?._type).toBe('claim')
  })

  it('accepts a new article at a free address', async () => {
    expect(await studioErrors(withSlug('telemetria-e-fadiga'))).toEqual([])
  })

  it("refuses another article's slug, naming it", async () => {
    expect(await studioErrors(withSlug('lgpd-camera-na-cabine'))).toEqual([
      expect.stringMatching(/slug: .*já é o endereço do artigo "LGPD e câmera/),
    ])
  })

  it('refuses the names the listing routes under /conteudos', async () => {
    for (const [slug, why] of [
      ['pagina', /páginas seguintes/],
      ['categoria', /páginas de categoria/],
      ['feed', /feed/],
    ] as const) {
      expect(await studioErrors(withSlug(slug))).toEqual([expect.stringMatching(why)])
    }
  })

  it('keeps /conteudos from being a legal or campaign page', async () => {
    const page = documents.find((doc) => doc._type === 'campaignPage')!
    const doc = {
      ...structuredClone(page),
      _id: 'campaignPage-x',
      slug: { _type: 'slug', current: 'conteudos' },
    }
    expect(await studioErrors(doc)).toEqual([expect.stringMatching(/lista de artigos/)])
  })

  it('requires a category, an author, a date and a summary', async () => {
    const doc = withSlug('teste') as Partial<Article> & SanityDocument
    delete doc.author
    delete doc.publishedAt
    delete doc.description
    doc.categories = []
    expect((await studioErrors(doc)).map((error) => error.split(':')[0])).toEqual(
      expect.arrayContaining([
        'article-novo author',
        'article-novo publishedAt',
        'article-novo description',
        'article-novo categories',
      ]),
    )
  })

  it("refuses another category's slug", async () => {
    const category = documents.find((doc) => doc._type === 'category')!
    const doc = { ...structuredClone(category), _id: 'category-nova' }
    expect(await studioErrors(doc)).toEqual([
      expect.stringMatching(/^category-nova slug: .*já é o endereço da categoria/),
    ])
  })

  it('accepts a redirect from an old article path, and refuses one from a live article', async () => {
    const make = (from: string, to: string) =>
      ({ _id: 'redirect-novo', _type: 'redirect', from, to, permanent: true }) as never
    expect(
      await studioErrors(make('/conteudos/antigo', '/conteudos/lgpd-camera-na-cabine')),
    ).toEqual([])
    expect(await studioErrors(make('/conteudos/lgpd-camera-na-cabine', '/'))).toEqual([
      expect.stringMatching(/é o artigo "LGPD/),
    ])
  })
})

describe('the announcement bar', () => {
  const announcement = (text: string) =>
    ({
      _id: 'announcement',
      _type: 'announcement',
      _createdAt: '2026-11-01T00:00:00Z',
      _updatedAt: '2026-11-01T00:00:00Z',
      _rev: 'r1',
      text,
      tone: 'informativo',
    }) as SanityDocument

  it('accepts a text of 90 characters and refuses one of 91 (docs/campaigns.md)', async () => {
    expect(await errorsOf(announcement('a'.repeat(90)))).toEqual([])
    const errors = await errorsOf(announcement('a'.repeat(91)))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^announcement text: .*90/)
  })

  it('requires the text', async () => {
    expect(await errorsOf(announcement(''))).not.toEqual([])
  })
})

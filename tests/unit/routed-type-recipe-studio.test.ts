import { createClient } from '@sanity/client'
import { createMockAuthStore, createWorkspaceFromConfig, type Workspace } from 'sanity'
import { createStructureBuilder, type StructureBuilder } from 'sanity/structure'
import { beforeAll, describe, expect, it, vi } from 'vitest'

// The Studio's side of a routed type added by docs/routed-types.md alone (the site's side:
// routed-type-recipe.test.ts). A throwaway `caseStudy`, in this test only: steps 1-2 (its schema,
// registered) and 3 (its definition) are the mocks below; its list, Presentation, Desempenho tab,
// slug rules, slug-change redirect and review-link action come from the definition, with no other
// file touched. `pressKit`, not redirectable, shows review links do not need redirects.

const recipe = vi.hoisted(() => ({
  caseStudy: {
    documentType: 'caseStudy',
    prefix: '/casos',
    section: 'é o prefixo dos casos de clientes (/casos/...)',
    redirectable: true,
    sitemap: { changeFrequency: 'monthly', priority: 0.6 },
    queries: { review: '*[_type == "caseStudy" && _id == $id][0]' },
    studio: {
      title: 'Casos',
      of: 'do caso',
      group: 'campaigns',
      preview: true,
      performance: true,
      reviewLinks: true,
    },
  },
  pressKit: {
    documentType: 'pressKit',
    prefix: '/imprensa',
    sitemap: { changeFrequency: 'monthly', priority: 0.6 },
    queries: { review: '*[_type == "pressKit" && _id == $id][0]' },
    studio: { title: 'Imprensa', of: 'do kit', group: 'campaigns', reviewLinks: true },
  },
}))
vi.mock('@/sanity/routed-type-definitions', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/sanity/routed-type-definitions')>()
  return { ...original, ROUTED_TYPES: { ...original.ROUTED_TYPES, ...recipe } }
})
vi.mock('@/sanity/schema-types', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/sanity/schema-types')>()
  const { defineField, defineType } = await import('sanity')
  const { routedSlugField } = await import('@/sanity/schema-types/path-rules')
  const caseStudy = defineType({
    name: 'caseStudy',
    title: 'Caso',
    type: 'document',
    fields: [
      defineField({ name: 'title', title: 'Título', type: 'string' }),
      routedSlugField('caseStudy' as never, { description: 'O caso fica em /casos/<endereço>.' }),
    ],
  })
  const pressKit = defineType({
    name: 'pressKit',
    type: 'document',
    fields: [routedSlugField('pressKit' as never, { description: '/imprensa/<endereço>.' })],
  })
  return { ...original, schemaTypes: [...original.schemaTypes, caseStudy, pressKit] }
})

const config = (await import('@/sanity.config')).default
const { defaultDocumentNode, singletonDocumentActions, structure } =
  await import('@/sanity/structure')
const { routedSlugRule } = await import('@/sanity/schema-types/path-rules')
const { redirectsForSlugChange } = await import('@/sanity/lib/slug-change')
const { reviewLinkType } = await import('@/sanity/schema-types/review-link')

let workspace: Workspace
const source = () => workspace.unstable_sources[0]!

beforeAll(async () => {
  const client = createClient({
    projectId: 'test',
    dataset: 'production',
    apiVersion: '2025-09-01',
    useCdn: false,
  })
  workspace = await createWorkspaceFromConfig({
    ...config,
    projectId: 'test',
    auth: createMockAuthStore({ client, currentUser: null }),
  })
}, 60_000)

describe('the Studio side of a routed type added by the recipe alone', () => {
  it('lists it in its group, before the redirects', async () => {
    const S: StructureBuilder = createStructureBuilder({ source: source(), perspectiveStack: [] })
    const root = await structure(S, {} as Parameters<typeof structure>[1])
    const items = (root as ReturnType<StructureBuilder['list']>).serialize().items as Array<{
      id?: string
      title?: string
    }>
    const ids = items.map((item) => item.id)
    expect(items.find((item) => item.id === 'caseStudy')?.title).toBe('Casos')
    expect(ids.indexOf('caseStudy')).toBeLessThan(ids.indexOf('redirect'))
    // Listed once: not again among the types nobody placed.
    expect(ids.filter((id) => id === 'caseStudy')).toHaveLength(1)
  })

  it('gives it a Desempenho tab and a Presentation location at /preview<its path>', () => {
    const S: StructureBuilder = createStructureBuilder({ source: source(), perspectiveStack: [] })
    const node = defaultDocumentNode(S, {
      schemaType: 'caseStudy',
      documentId: 'x',
    } as unknown as Parameters<typeof defaultDocumentNode>[1])
    const views = (node as ReturnType<StructureBuilder['document']>).getViews() ?? []
    expect(views.map((view) => ('serialize' in view ? view.serialize() : view).id)).toContain(
      'desempenho',
    )
    const presentation = workspace.tools.find((tool) => tool.name === 'presentation')
    const { resolve } = presentation?.options as {
      resolve: {
        locations: Record<string, { resolve: (doc: Record<string, unknown>) => unknown }>
        mainDocuments: Array<{ route: string[]; filter?: string }>
      }
    }
    expect(resolve.locations.caseStudy!.resolve({ title: 'Frota A', slug: 'caso-a' })).toEqual({
      locations: [{ title: 'Frota A', href: '/preview/casos/caso-a' }],
    })
    expect(resolve.mainDocuments).toContainEqual({
      route: ['/casos/:slug', '/preview/casos/:slug'],
      filter: '_type == "caseStudy" && slug.current == $slug',
    })
  })

  it('offers review links, redirectable or not', () => {
    for (const schemaType of ['caseStudy', 'pressKit'])
      expect(
        singletonDocumentActions([], { schemaType } as never).map((action) => action.action),
      ).toContain('reviewLink')
    const page = reviewLinkType.fields.find((field) => field.name === 'page') as {
      to: Array<{ type: string }>
    }
    expect(page.to).toEqual(expect.arrayContaining([{ type: 'caseStudy' }, { type: 'pressKit' }]))
  })

  it('refuses a reserved slug and leaves a redirect when one is renamed', async () => {
    expect(
      await routedSlugRule(
        'caseStudy' as never,
        'studio',
        {} as Parameters<typeof routedSlugRule>[2],
      ),
    ).toMatch(/Sanity Studio/)
    expect(redirectsForSlugChange('velho', 'novo', [], 'caseStudy' as never)).toContainEqual({
      createOrReplace: expect.objectContaining({
        _id: 'redirect-casos-velho',
        from: '/casos/velho',
        to: '/casos/novo',
      }),
    })
  })
})

import { renderToStaticMarkup } from 'react-dom/server'
import { createSchema, pathToString, validateDocument, type Workspace } from 'sanity'
import { describe, expect, it, vi } from 'vitest'

import { bundledDocuments } from './content-support'
import { readRecipe } from '../support/recipe'

// docs/content.md, "Adding a block", followed for a throwaway block that ships nowhere: a quote.
// Steps 1 and 2 (its schema, in BLOCK_SCHEMA_TYPES), 3 (its fragment in blockFragments), 4 and 5
// (its component, in BLOCK_COMPONENTS) are `recipe` and the mocks below; step 6 (a sample on a
// bundled campaign page) is SAMPLE. Nothing else is added for it: the Studio must then offer and
// accept it, the page query project its fields, and the page render it.

const recipe = vi.hoisted(() => ({
  schema: {
    name: 'quoteBlock',
    title: 'Citação',
    type: 'object',
    fields: [
      { name: 'quote', title: 'Citação', type: 'string' },
      { name: 'author', title: 'Autor', type: 'string' },
    ],
  },
  fragment: `_type == "quoteBlock" => {quote, author}`,
}))
vi.mock('@/components/blocks/schemas', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/components/blocks/schemas')>()
  return { ...original, BLOCK_SCHEMA_TYPES: [...original.BLOCK_SCHEMA_TYPES, recipe.schema] }
})
vi.mock('@/components/blocks/fragments', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/components/blocks/fragments')>()
  return { ...original, blockFragments: `${original.blockFragments}, ${recipe.fragment}` }
})
vi.mock('@/components/blocks/components', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/components/blocks/components')>()
  const QuoteBlock = ({ block }: { block: { _key: string; quote: string; author: string } }) => (
    <blockquote id={`bloco-${block._key}`}>
      {block.quote} <cite>{block.author}</cite>
    </blockquote>
  )
  return { ...original, BLOCK_COMPONENTS: { ...original.BLOCK_COMPONENTS, quoteBlock: QuoteBlock } }
})

const { schemaTypes } = await import('@/sanity/schema-types')
const { campaignPageType } = await import('@/sanity/schema-types/campaign-page')
const { CAMPAIGN_PAGE_QUERY } = await import('@/sanity/lib/queries')
const { queryDataset } = await import('@/lib/content/bundled')
const { RenderBlocks } = await import('@/components/blocks/render-blocks')

const SAMPLE = {
  _key: 'citacao',
  _type: 'quoteBlock',
  quote: 'Reduzimos os sinistros noturnos pela metade.',
  author: 'Gerente de frota',
}

describe('a campaign block added by the recipe alone', () => {
  it('is offered and accepted by the Studio, projected by the page query and rendered', async () => {
    // The Studio: a schema type of its own, in the page's block menu, compiling without errors.
    expect(schemaTypes.map((type) => type.name)).toContain('quoteBlock')
    const members = (
      campaignPageType.fields.find((field) => field.name === 'blocks') as unknown as {
        of: Array<{ type: string }>
      }
    ).of
    expect(members.map((member) => member.type)).toContain('quoteBlock')
    const schema = createSchema({ name: 'default', types: schemaTypes })
    const problems = (schema._validation ?? []).flatMap((group) =>
      group.problems.filter((problem) => problem.severity === 'error'),
    )
    expect(problems).toEqual([])

    // Step 6: the sample on a bundled campaign page, which the Studio would let an editor publish.
    const documents = bundledDocuments().map((doc) =>
      doc._id === 'campaignPage-onibus-rodoviarios'
        ? { ...doc, blocks: [...(doc.blocks as object[]), SAMPLE] }
        : doc,
    )
    const page = documents.find((doc) => doc._id === 'campaignPage-onibus-rodoviarios')!
    const markers = await validateDocument({
      document: page as never,
      workspace: { schema } as unknown as Workspace,
      environment: 'cli',
      getDocumentExists: async ({ id }) => documents.some((doc) => doc._id === id),
      getClient: (() => {
        throw new Error('No Content Lake in this test.')
      }) as never,
    })
    expect(
      markers
        .filter((marker) => marker.level === 'error')
        .map((marker) => `${pathToString(marker.path)}: ${marker.message}`)
        .filter((message) => !message.startsWith('slug')),
    ).toEqual([])

    // The query projects its fields (without its fragment it would be {_key, _type} only).
    const projected = await queryDataset<{ blocks: Array<{ _key: string; _type: string }> }>(
      CAMPAIGN_PAGE_QUERY,
      { slug: 'onibus-rodoviarios' },
      documents,
    )
    const block = projected.blocks.find((one) => one._type === 'quoteBlock')
    expect(block).toEqual(SAMPLE)

    // The page renders it, without the unknown-type warning.
    const warn = vi.spyOn(console, 'warn')
    const html = renderToStaticMarkup(
      <RenderBlocks
        blocks={[block!]}
        context={{ settings: null, pageSlug: 'onibus-rodoviarios' }}
      />,
    )
    expect(html).toContain('<blockquote id="bloco-citacao">')
    expect(html).toContain('Reduzimos os sinistros noturnos pela metade.')
    expect(warn).not.toHaveBeenCalled()
    warn.mockRestore()
  })

  it('is the file list docs/content.md gives', () => {
    const { files: steps, statedCount } = readRecipe('docs/content.md', '### Adding a block')
    expect(steps).toEqual([
      'components/blocks/logos/schema.ts',
      'components/blocks/schemas.ts',
      'components/blocks/fragments.ts',
      'components/blocks/logos/component.tsx',
      'components/blocks/components.tsx',
      'sanity/dataset/production.ndjson',
    ])
    expect(statedCount).toBe(steps.length)
    expect(steps.length).toBeLessThanOrEqual(6)
  })
})

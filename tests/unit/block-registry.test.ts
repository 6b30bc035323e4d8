// A block exists once: its schema and its component side by side in components/blocks/<name>/,
// its GROQ fragment in components/blocks/fragments.ts, a sample on a bundled campaign page. These
// fail when one is missing (docs/content.md, "Adding a block"; block-recipe.test.tsx follows it).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { BLOCK_COMPONENTS } from '@/components/blocks/components'
import { BLOCK_SCHEMA_TYPES } from '@/components/blocks/schemas'
import { CAMPAIGN_PAGE_QUERY } from '@/sanity/lib/queries'
import { campaignPageType } from '@/sanity/schema-types/campaign-page'
import { schemaTypes } from '@/sanity/schema-types'

import { bundledDocuments } from './content-support'

const BLOCKS_DIR = path.join(__dirname, '..', '..', 'components', 'blocks')

/** The block types an editor can add to a campaign page, read from the schema itself. */
const schemaBlockTypes = (
  campaignPageType.fields.find((field) => field.name === 'blocks') as unknown as {
    of: Array<{ type: string }>
  }
).of.map((member) => member.type)

/** The types CAMPAIGN_PAGE_QUERY has a fragment for (`_type == "x" => {...}`). */
const fragmentTypes = [...CAMPAIGN_PAGE_QUERY.matchAll(/_type == "(\w+)" =>/g)].map(
  (match) => match[1],
)

/** The block types the bundled campaign pages hold: what a checkout without Sanity shows. */
const bundledSampleTypes = new Set(
  bundledDocuments()
    .filter((doc) => doc._type === 'campaignPage')
    .flatMap((doc) => (doc.blocks as Array<{ _type: string }>).map((block) => block._type)),
)

describe('the block registry', () => {
  it('offers every registered block in the page schema, each a schema type of its own', () => {
    expect(schemaBlockTypes).toEqual(BLOCK_SCHEMA_TYPES.map((type) => type.name))
    const names = schemaTypes.map((type) => type.name)
    for (const type of schemaBlockTypes) expect(names, type).toContain(type)
  })

  it.each(schemaBlockTypes)('%s has a component', (type) => {
    expect(
      Object.hasOwn(BLOCK_COMPONENTS, type),
      `components/blocks/components.tsx lacks ${type}`,
    ).toBe(true)
  })

  it.each(schemaBlockTypes)('%s has a GROQ fragment in CAMPAIGN_PAGE_QUERY', (type) => {
    expect(fragmentTypes, `CAMPAIGN_PAGE_QUERY lacks the fragment of ${type}`).toContain(type)
  })

  // Step 6 of the recipe; tests/unit/blocks-render.test.tsx renders each sample.
  it.each(schemaBlockTypes)('%s has a sample on a bundled campaign page', (type) => {
    expect(
      bundledSampleTypes.has(type),
      `sanity/dataset/production.ndjson: no campaign page holds a ${type}`,
    ).toBe(true)
  })

  it('has no component or fragment for a type the schema does not offer', () => {
    expect(Object.keys(BLOCK_COMPONENTS).sort()).toEqual([...schemaBlockTypes].sort())
    // The rich-text fragment also names "image", a member of its Portable Text.
    expect(fragmentTypes.filter((type) => type !== 'image').sort()).toEqual(
      [...schemaBlockTypes].sort(),
    )
  })

  it('keeps each block in a folder of its own: schema and component side by side', () => {
    const folders = readdirSync(BLOCKS_DIR).filter((name) =>
      statSync(path.join(BLOCKS_DIR, name)).isDirectory(),
    )
    expect(folders.length).toBe(schemaBlockTypes.length)
    for (const folder of folders) {
      for (const file of ['schema.ts', 'component.tsx'])
        expect(existsSync(path.join(BLOCKS_DIR, folder, file)), `blocks/${folder}/${file}`).toBe(
          true,
        )
    }
  })

  it('is registered in the three lists docs/content.md names, and imported nowhere else', () => {
    const root = path.join(__dirname, '..', '..')
    const sources = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(path.join(dir, entry.name))
          : /\.(tsx?|mjs)$/.test(entry.name)
            ? [path.join(dir, entry.name)]
            : [],
      )
    const blockFolder = /^components\/blocks\/[^/]+\//
    const importers = ['app', 'components', 'lib', 'sanity']
      .flatMap(sources)
      .filter((file) => !blockFolder.test(file))
      .filter((file) =>
        /from '[^']*\/[a-z-]+\/(schema|component)'/.test(
          readFileSync(path.join(root, file), 'utf8'),
        ),
      )
    const LISTS = [
      ['BLOCK_SCHEMA_TYPES', 'components/blocks/schemas.ts'],
      ['blockFragments', 'components/blocks/fragments.ts'],
      ['BLOCK_COMPONENTS', 'components/blocks/components.tsx'],
    ] as const
    // The fragments are written in fragments.ts itself: the folders are imported by the other two.
    expect(importers.sort()).toEqual(
      LISTS.map(([, file]) => file)
        .filter((file) => file !== 'components/blocks/fragments.ts')
        .sort(),
    )

    const doc = readFileSync(path.join(root, 'docs/content.md'), 'utf8')
    const section = doc.slice(doc.indexOf('### Adding a block'), doc.indexOf('## The savings'))
    expect(section).toMatch(/registered\s+in three lists/)
    for (const [list, file] of LISTS) {
      expect(readFileSync(path.join(root, file), 'utf8'), file).toContain(list)
      const row = section
        .split('\n')
        .find((line) => line.startsWith('|') && line.includes(`\`${list}\``))
      expect(row, `docs/content.md lists ${list}`).toContain(`\`${file}\``)
    }
  })
})

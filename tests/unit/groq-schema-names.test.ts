// GROQ projections (strings) and the schema's field factories (functions and field lists) once
// shared names: `windowFields` and `pageVisibilityFields` were each both, in two modules, and
// an import from the wrong one type-checks inside a template string. The projections now end in
// `Projection`; this keeps the two sides apart.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

const root = path.resolve(__dirname, '../..')
const blockFolders = readdirSync(path.join(root, 'components/blocks'), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

/** Each name the files export (`export const|function|type X`), with the file it is in. */
function exportsOf(files: string[]): Map<string, string> {
  const names = new Map<string, string>()
  for (const file of files) {
    const source = readFileSync(path.join(root, file), 'utf8')
    for (const match of source.matchAll(/^export (?:async )?(?:const|function|type) (\w+)/gm))
      names.set(match[1] as string, file)
  }
  return names
}

const GROQ_FILES = [
  'sanity/lib/fragments.ts',
  'sanity/lib/queries.ts',
  'components/blocks/fragments.ts',
]

const SCHEMA_FILES = [
  ...readdirSync(path.join(root, 'sanity/schema-types')).map(
    (file) => `sanity/schema-types/${file}`,
  ),
  'components/blocks/shared-schema.ts',
  'components/blocks/schemas.ts',
  ...blockFolders.map((folder) => `components/blocks/${folder}/schema.ts`),
]

describe('GROQ projections and schema factories', () => {
  it('share no name', () => {
    const groq = exportsOf(GROQ_FILES)
    const schema = exportsOf(SCHEMA_FILES)
    // A guard for the guard: both sides were read.
    expect([groq.has('CAMPAIGN_PAGE_QUERY'), schema.has('imageField')]).toEqual([true, true])
    const shared = [...groq.keys()]
      .filter((name) => schema.has(name))
      .map((name) => `${name}: ${groq.get(name)} and ${schema.get(name)}`)
    expect(shared).toEqual([])
  })

  it('name every shared projection …Projection (or what else it is: a filter, a sub-query)', async () => {
    const fragments = (await import('@/sanity/lib/fragments')) as Record<string, unknown>
    const misnamed = Object.entries(fragments)
      .filter(([, value]) => typeof value === 'string')
      .map(([name]) => name)
      .filter((name) => !/(Projection|Filter|Document)$/.test(name))
    expect(misnamed).toEqual([])
  })
})

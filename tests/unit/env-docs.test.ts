// docs/environment.md is the one table of every environment variable the site reads. This fails
// when code reads a variable the table does not name: in lib/env.ts (where server settings are
// read and checked) or as process.env.X anywhere in the app's own code, next.config.ts included.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

const root = path.resolve(__dirname, '../..')

/** Where the site's code lives; tests and scripts are tools, documented beside them. */
const SOURCES = [
  'app',
  'lib',
  'components',
  'sanity',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.ts',
]

function files(entry: string): string[] {
  const full = path.join(root, entry)
  if (statSync(full).isFile()) return /\.(?:[cm]?[jt]sx?)$/.test(entry) ? [entry] : []
  return readdirSync(full).flatMap((name) => files(path.join(entry, name)))
}

/** Every variable lib/env.ts reads, by the name it passes to its readers (`optional('X')`…). */
function readByEnvModule(): string[] {
  const source = readFileSync(path.join(root, 'lib/env.ts'), 'utf8')
  return [...source.matchAll(/\(\s*'([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] as string)
}

/** Every `process.env.X` or `process.env['X']` in the site's code. */
function readThroughProcessEnv(): string[] {
  return SOURCES.flatMap(files).flatMap((file) =>
    [
      ...readFileSync(path.join(root, file), 'utf8').matchAll(
        /process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\])/g,
      ),
    ].map((m) => (m[1] ?? m[2]) as string),
  )
}

const variables = [...new Set([...readByEnvModule(), ...readThroughProcessEnv()])].sort()

describe('docs/environment.md', () => {
  const doc = readFileSync(path.join(root, 'docs/environment.md'), 'utf8')

  it('finds the variables the code reads', () => {
    // A guard for the guard: if the readers change shape, this must not pass on an empty list.
    expect(variables).toEqual(
      expect.arrayContaining([
        'SUPABASE_URL',
        'CDN_PURGE_URL',
        'REDIS_URL', // lib/redis/connection.mjs, process.env
        'NEXT_PUBLIC_SANITY_DATASET', // sanity/env.ts, process.env
        'NEXT_DIST_DIR', // next.config.ts
      ]),
    )
  })

  it.each(variables)('has a table row for %s', (name) => {
    // The first cell of a row names it: `| \`NAME\` | what | default |`.
    expect(doc).toMatch(new RegExp(`^\\|[^|\\n]*\`${name}\`[^|\\n]*\\|`, 'm'))
  })

  it('is the only table of them: every other doc links to it', () => {
    const others = [
      'README.md',
      ...readdirSync(path.join(root, 'docs'))
        .filter((file) => file.endsWith('.md') && file !== 'environment.md')
        .map((file) => `docs/${file}`),
    ]
    const copies = others.flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .filter((line) => {
          const first = line.match(/^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|/)?.[1]
          return first !== undefined && variables.includes(first)
        })
        .map((line) => `${file}: ${line.slice(0, 50)}`),
    )
    expect(copies).toEqual([])
  })
})

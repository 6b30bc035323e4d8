import fs from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

// The Studio's browser bundle (sanity.config.ts and everything it imports from this repository)
// carries no SQL: the Desempenho tool reads the analytics declaration (measures.mjs) and the
// report's contract (report-schema.ts), never the report's queries (report-db.mjs) or a database
// driver. Followed statically, through the repository's own imports, as the bundler would.

const ROOT = path.resolve('.')
const EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx']

function resolve(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith('@/')
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith('.')
      ? path.resolve(path.dirname(from), specifier)
      : undefined
  if (!base) return undefined
  return EXTENSIONS.map((extension) => base + extension).find(
    (file) => fs.existsSync(file) && fs.statSync(file).isFile(),
  )
}

/** Every repository file the entry reaches by its imports (types-only imports left out). */
function reached(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>()
  const queue = [path.join(ROOT, entry)]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    const source = fs.readFileSync(file, 'utf8')
    const packages: string[] = []
    seen.set(file, packages)
    for (const match of source.matchAll(
      /(?:^|\n)\s*(import|export)(\s+type)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      if (match[2]) continue
      const specifier = match[3] ?? match[4]!
      const target = resolve(file, specifier)
      if (target) queue.push(target)
      else packages.push(specifier)
    }
  }
  return seen
}

describe("the Studio's bundle", () => {
  const files = reached('sanity.config.ts')
  const relative = [...files.keys()].map((file) => path.relative(ROOT, file))

  it('reaches the analytics declaration and the report contract (the walk follows imports)', () => {
    expect(relative).toContain('lib/analytics/measures.mjs')
    expect(relative).toContain('lib/analytics/report-schema.ts')
  })

  it("carries no SQL: neither the report's queries nor a database driver", () => {
    expect(
      relative.filter((file) => /report-db|lib\/leads\/(db|postgres)\.mjs/.test(file)),
    ).toEqual([])
    const drivers = [...files.values()].flat().filter((name) => /^(pg|@electric-sql)/.test(name))
    expect(drivers).toEqual([])
  })
})

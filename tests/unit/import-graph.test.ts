import { existsSync, globSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

// No module imports itself back, however far round, type imports included (issue 68): a circle
// loads half-initialised in one order and not the other, and two modules that need each other are
// one concept in two files. Layers import one way.

const ROOT = process.cwd()
const SOURCES = ['lib', 'components', 'app', 'sanity'].flatMap((dir) =>
  globSync(`${dir}/**/*.{ts,tsx,mjs,js}`, { cwd: ROOT }),
)
const NODE_BUILTINS = new Set(builtinModules)
const EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx']
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function resolve(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith('@/')
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith('.')
      ? path.resolve(path.dirname(path.join(ROOT, from)), specifier)
      : undefined
  if (!base) return undefined
  for (const extension of EXTENSIONS) {
    const file = base + extension
    if (existsSync(file) && statSync(file).isFile()) return path.relative(ROOT, file)
  }
  return undefined
}

function specifiers(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8')
  return [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2]!)
}

/** Each source file's imports of other source files. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = specifiers(file)
      .map((specifier) => resolve(file, specifier))
      .filter((target): target is string => target !== undefined && target !== file)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** The source files `entry` reaches through its static imports. */
function reached(entry: string): string[] {
  const seen = new Set([entry])
  for (const file of seen)
    for (const specifier of specifiers(file)) {
      const target = resolve(file, specifier)
      if (target) seen.add(target)
    }
  return [...seen]
}

/** Every circle, each once, as the files round it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found = new Map<string, string[]>()
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    stack.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const circle = stack.slice(stack.indexOf(next))
        found.set([...circle].sort().join(' '), circle)
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return [...found.values()]
}

describe('imports', () => {
  it('the detector finds a circle, type imports included', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']])
    expect(
      [...'import type { X } from "./x"\nexport { y } from \'@/lib/y\''.matchAll(IMPORT)].map(
        (match) => match[1],
      ),
    ).toEqual(['./x', '@/lib/y'])
  })

  it('make no circle in lib/, components/, app/ and sanity/', () => {
    const graph = importGraph(SOURCES)
    expect(graph.size).toBeGreaterThan(200)
    expect(circles(graph).map((circle) => [...circle, circle[0]].join(' -> '))).toEqual([])
  })

  it("the Studio's browser bundle reaches no Node built-in", () => {
    const files = reached('sanity.config.ts')
    expect(files).toContain('lib/experiments/ids.ts')
    const builtins = files.flatMap((file) =>
      specifiers(file)
        .filter((specifier) => specifier.startsWith('node:') || NODE_BUILTINS.has(specifier))
        .map((specifier) => `${file}: ${specifier}`),
    )
    expect(builtins).toEqual([])
  })

  it('proxy.ts, run on every page request, reaches neither a store nor the content reader', () => {
    const files = reached('proxy.ts')
    expect(files).toContain('lib/analytics/visitor.ts')
    expect(
      files.filter((file) =>
        /^lib\/(leads\/|content\/(index|bundled|sanity-client)|analytics\/(index|store))/.test(
          file,
        ),
      ),
    ).toEqual([])
  })
})

// Claims in docs/ that drift when the code moves on: each fails here instead of misleading a
// newcomer. (The environment table and the block registration lists have their own tests:
// env-docs.test.ts and block-registry.test.ts.)
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { PAGES } from '@/scripts/bench/budgets.mjs'
import { APP_ROUTES, RESERVED_SLUGS } from '@/sanity/lib/routed-types'
import { ARTICLE_RESERVED_SLUGS } from '@/sanity/routed-types'

const root = path.resolve(__dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')
const DOCS = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
]

/** The names in backticks of one sentence or list item that contains `marker`. */
function backticked(doc: string, marker: string): string[] {
  const start = doc.indexOf(marker)
  expect(start, `the doc says ${JSON.stringify(marker)}`).toBeGreaterThan(-1)
  const end = doc.indexOf(')', start)
  return [...doc.slice(start, end).matchAll(/`([^`]+)`/g)].map((match) => match[1] as string)
}

describe('docs claims', () => {
  it('content.md lists every reserved top-level slug, and no other', () => {
    const listed = backticked(read('docs/content.md'), 'one the app routes (')
    expect(listed.filter((name) => name !== 'RESERVED_SLUGS').sort()).toEqual(
      [...RESERVED_SLUGS.keys()].sort(),
    )
  })

  it('security.md lists every reserved path a redirect cannot start from', () => {
    const listed = backticked(read('docs/security.md'), 'never a reserved path (')
    // The app's own routes; each routed type's section is covered by `RESERVED_SLUGS` there.
    expect(listed).toContain('RESERVED_SLUGS')
    for (const slug of APP_ROUTES.keys()) expect(listed).toContain(`/${slug}`)
    for (const slug of ARTICLE_RESERVED_SLUGS.keys()) expect(listed).toContain(slug)
  })

  it('speed.md and articles.md name every page kind the bench measures', () => {
    const speed = read('docs/speed.md')
    const kinds = speed.slice(speed.indexOf('### The page kinds'), speed.indexOf('## The target'))
    for (const page of PAGES) expect(kinds).toContain(`\`${page.path}\``)
    const articles = read('docs/articles.md')
    for (const page of PAGES.filter(({ path }) => path.startsWith('/conteudos')))
      expect(articles).toContain(`\`${page.path}\``)
  })

  it('upgrading-next.md lists every next/dist module the code imports', () => {
    const sources = execFileSync(
      'git',
      ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mjs', '*.cjs'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    )
      .split('\0')
      .filter((file) => file && existsSync(path.join(root, file)))
    const imported = new Set(
      sources.flatMap((file) =>
        [...read(file).matchAll(/(?:from |require\()'(next\/dist\/[^']+)'/g)].map(
          (match) => match[1] as string,
        ),
      ),
    )
    const doc = read('docs/upgrading-next.md')
    const listed = new Set(
      [...doc.matchAll(/^\| `(next\/dist\/[^`]+)`/gm)].map((match) => match[1] as string),
    )
    expect(imported.size).toBeGreaterThan(0)
    expect([...listed].sort()).toEqual([...imported].sort())
  })

  it.each(DOCS)('%s links to docs and headings that exist', (doc) => {
    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
    const anchorsOf = (file: string) =>
      new Set(
        [
          ...read(file)
            .replace(/```[\s\S]*?```/g, '')
            .matchAll(/^#+ (.*)$/gm),
        ].map((match) =>
          (match[1] as string)
            .trim()
            .toLowerCase()
            .replace(/[^\p{L}\p{M}\p{N}_\s-]/gu, '')
            .replace(/\s/g, '-'),
        ),
      )
    const broken = [...read(doc).matchAll(/\]\(([^)\s#]*)(?:#([^)\s]*))?\)/g)]
      .filter(([, target]) => !/^[a-z]+:/.test(target as string))
      .filter(([, target, anchor]) => {
        const file = target ? path.join(path.dirname(doc), target as string) : doc
        if (!existsSync(path.join(root, file))) return true
        return anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)
      })
      .map(([link]) => link)
    expect(broken).toEqual([])
  })

  it.each(DOCS)('%s names files that exist', (doc) => {
    const missing = [
      ...read(doc).matchAll(
        /`((?:app|lib|components|sanity|scripts|tests|deploy|supabase|public)\/[^`\s<*…]+)`/g,
      ),
    ]
      .map((match) => (match[1] as string).split('#')[0]!.replace(/\/$/, ''))
      .filter((file) => !file.includes('...'))
      // The worked example of "Adding a block" is a block that does not exist yet.
      .filter((file) => !file.startsWith('components/blocks/logos/'))
      .filter((file) => !existsSync(path.join(root, file)))
    expect(missing).toEqual([])
  })

  it.each(DOCS)('%s names code that exists', (doc) => {
    const code = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((file) => /\.(?:[cm]?[jt]sx?|json|conf|sql)$/.test(file) || file === '.ci/run')
      .filter((file) => existsSync(path.join(root, file)))
      .map(read)
      .join('\n')
    const names = new Set(
      [...read(doc).matchAll(/`([A-Za-z_]\w*)(?:\(\))?`/g)]
        .map((match) => match[1] as string)
        // Our own names: camelCase functions and constants, CONSTANT_CASE.
        .filter(
          (name) => /^[a-z]+[A-Z]\w*$/.test(name) || /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(name),
        ),
    )
    const missing = [...names].filter(
      (name) => !OTHER_PROJECTS_NAMES.has(name) && !new RegExp(`\\b${name}\\b`).test(code),
    )
    expect(missing).toEqual([])
  })
})

/** Names the docs quote from other projects' code (Chromium, Next, webpack) or from an example. */
const OTHER_PROJECTS_NAMES = new Set([
  'SIGNIFICANT_DUR_THRESHOLD_MS',
  'getRenderBlockingNodeData',
  'kLongParserBudgetDefaultValue',
  'priorityRoutes',
  'requestCost',
  'maxMergeChunkSize',
  'minChunkSize',
  'maxChunkCountPerGroup',
  'remotePatterns',
  'cacheLife',
  'cacheComponents',
  'logosBlock',
])

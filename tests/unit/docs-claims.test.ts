// Claims in README.md and docs/ that drift when the code moves on: each fails here instead of
// misleading a newcomer. Here: reserved slugs, the bench's page kinds, next/dist imports, links,
// file and code names, README's client islands, layout and docs tables, that only content.md gives
// the webhook's projection and filter, the publish deadlines, and analytics.md's report groups,
// measures and materials. Elsewhere: the environment table
// (env-docs.test.ts), the webhook's filter and projection (webhook-filter-doc.test.ts), the block
// registration lists (block-registry.test.ts), the routed-type recipe (routed-types.test.ts).
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import {
  CONVERSION_GROUP_SPECS,
  MATERIAL_PAGE_PREFIX,
  MEASURE_SPECS,
  measuresOf,
  REPORT_GROUP_NAMES,
} from '@/lib/analytics/measures.mjs'
import { PAGES } from '@/scripts/bench/budgets.mjs'
import { APP_ROUTES } from '@/sanity/lib/routed-type-rules'
import { ARTICLE_RESERVED_SLUGS } from '@/sanity/routed-type-definitions'

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
  it('analytics.md gives every by= of the endpoint, every measure, and the materials as they are counted', () => {
    const doc = read('docs/analytics.md')
    expect(doc).toContain(`by=${REPORT_GROUP_NAMES.join('|')}[`)
    const measures = doc.slice(doc.indexOf('**Measures** of every row'), doc.indexOf('### Adding'))
    for (const spec of MEASURE_SPECS) expect(measures).toContain(`\`${spec.name}\``)
    const materials = doc.slice(doc.indexOf('## Materials'), doc.indexOf('## Reading the figures'))
    expect(materials).toContain(`\`${MATERIAL_PAGE_PREFIX}/<slug>\``)
    for (const group of CONVERSION_GROUP_SPECS) {
      expect(materials).toContain(`**\`by=${group.report}\`**`)
      expect(materials).toContain(`(**${group.title}**)`)
      const columns = measuresOf(group.report).map((spec) => spec.column)
      expect(materials).toContain(`\`${[group.label, ...columns].join(';')}\``)
    }
  })

  it('security.md lists every reserved path a redirect cannot start from', () => {
    const listed = backticked(read('docs/security.md'), 'never a reserved path (')
    // The app's own routes; each routed type's section is covered by `RESERVED_SLUGS` there.
    expect(listed).toContain('RESERVED_SLUGS')
    for (const slug of APP_ROUTES.keys()) expect(listed).toContain(`/${slug}`)
    for (const slug of ARTICLE_RESERVED_SLUGS.keys()) expect(listed).toContain(slug)
  })

  it('speed.md names every page kind the bench measures', () => {
    const speed = read('docs/speed.md')
    const kinds = speed.slice(speed.indexOf('### The page kinds'), speed.indexOf('## The target'))
    for (const page of PAGES) expect(kinds).toContain(`\`${page.path}\``)
    for (const page of PAGES.filter((p) => p.variant))
      expect(kinds).toContain(`\`${page.variant}\``)
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

/** Files under `dir` (recursively), as paths from the root. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`
    return entry.isDirectory() ? filesUnder(file) : [file]
  })
}

/** The names in backticks of the README table under `heading`, first column. */
function firstColumn(doc: string, heading: string): string[] {
  const start = doc.indexOf(heading)
  expect(start, `README has ${JSON.stringify(heading)}`).toBeGreaterThan(-1)
  const table = doc.slice(start).split('\n## ')[0]!
  return [...table.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1] as string)
}

describe('README', () => {
  const readme = read('README.md')

  it('is short: at most 120 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(120)
  })

  it('and the docs together stay under 16,000 words (issue 44: one fact once, no essays)', () => {
    const words = DOCS.map((doc) => read(doc).split(/\s+/).filter(Boolean).length)
    expect(words.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(16_000)
  })

  it('names every client island, and only client islands', () => {
    // The site's client code: every file under components/ and app/ that starts with 'use client'.
    const clientFiles = ['components', 'app']
      .flatMap(filesUnder)
      .filter((file) => /\.[jt]sx?$/.test(file))
      .filter((file) => /^\s*['"]use client['"]/.test(read(file)))
    expect(clientFiles).toContain('components/visit-beacon.tsx') // the guard's guard
    const start = readme.indexOf('Client code is only in these leaves')
    expect(start, 'README lists the client islands').toBeGreaterThan(-1)
    const sentence = readme.slice(start, readme.indexOf('\n\n', start))
    const named = [...sentence.matchAll(/`((?:components|app)\/[^`]+)`/g)].map(
      (match) => match[1] as string,
    )
    const covers = (name: string, file: string) =>
      name.endsWith('/') ? file.startsWith(name) : file === name
    // Every client file is named (or its folder is), and every name is client code.
    expect(clientFiles.filter((file) => !named.some((name) => covers(name, file)))).toEqual([])
    expect(named.filter((name) => !clientFiles.some((file) => covers(name, file)))).toEqual([])
  })

  it('layout table: every path exists, and every folder of lib/ and sanity/ is listed', () => {
    const listed = firstColumn(readme, '## How it is put together')
    expect(listed.filter((entry) => !existsSync(path.join(root, entry)))).toEqual([])
    const folders = ['lib', 'sanity'].flatMap((dir) =>
      readdirSync(path.join(root, dir), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${dir}/${entry.name}/`),
    )
    expect(folders).toContain('lib/cdn/')
    expect(folders.filter((folder) => !listed.includes(folder))).toEqual([])
  })

  it('docs table lists every doc', () => {
    const table = readme.slice(readme.indexOf('## Docs')).split('\n## ')[0]!
    const linked = [...table.matchAll(/\]\((docs\/[^)#]+\.md)\)/g)].map((match) => match[1])
    expect([...new Set(linked)].sort()).toEqual(DOCS.filter((doc) => doc !== 'README.md').sort())
  })
})

describe('the publish webhook, said once', () => {
  // docs/content.md gives the projection and the filter, held to the code by
  // webhook-filter-doc.test.ts; a second copy elsewhere would drift (two once did).
  it.each(DOCS.filter((doc) => doc !== 'docs/content.md'))(
    '%s links to content.md instead of giving the projection or filter',
    (doc) => {
      const text = read(doc)
      expect(text).not.toContain('slug.current')
      expect(text).not.toMatch(/_type in \[/)
    },
  )
})

/** A numeric constant of a source file: `const NAME = 5_000` or `= 5 * 1000`. */
function constant(file: string, name: string): number {
  const value = new RegExp(`const ${name} = ([\\d_ *]+)\\n`).exec(read(file))?.[1]
  expect(value, `${file} defines ${name}`).toBeDefined()
  return value!
    .replace(/_/g, '')
    .split('*')
    .reduce((product, factor) => product * Number(factor.trim()), 1)
}

describe('the publish deadlines the docs promise', () => {
  const lake = 'tests/e2e/lake-fixtures.ts'
  const seconds = {
    PUBLISH_PROMISE_MS: constant(lake, 'PUBLISH_PROMISE_MS') / 1000,
    OTHER_INSTANCE_MS: constant(lake, 'OTHER_INSTANCE_MS') / 1000,
    SYNC_INTERVAL_MS: constant('lib/cache/cache-handler.mjs', 'SYNC_INTERVAL_MS') / 1000,
    DEFAULT_FALLBACK_REVALIDATE_SECONDS: constant(
      'lib/redis/connection.mjs',
      'DEFAULT_FALLBACK_REVALIDATE_SECONDS',
    ),
    DEFAULT_CONSISTENCY_DELAY_MS:
      constant('app/api/revalidate/route.ts', 'DEFAULT_CONSISTENCY_DELAY_MS') / 1000,
    RETRY_FAILED_RENDER_MS:
      constant('lib/cache/cache-handler.mjs', 'RETRY_FAILED_RENDER_MS') / 1000,
  }
  /** From the webhook being sent to an instance that cannot read Redis: the promise, then its fallback. */
  const FALLBACK_PROMISE = seconds.PUBLISH_PROMISE_MS + seconds.DEFAULT_FALLBACK_REVALIDATE_SECONDS
  type Claim = keyof typeof seconds | 'fallback promise'
  const valueOf = (name: Claim) => (name === 'fallback promise' ? FALLBACK_PROMISE : seconds[name])
  /** Each way a doc states a deadline in words, and the figure it must equal. */
  const PHRASES: [RegExp, Claim][] = [
    [
      /served\s+within\s+\**(\d+) s\**\s+of\s+(?:Sanity\s+sending\s+)?the\s+webhook/g,
      'PUBLISH_PROMISE_MS',
    ],
    [/\**(\d+) s\**\s+more\s+on/g, 'OTHER_INSTANCE_MS'],
    [
      /(?:catch(?:es)?\s+up|reach(?:es)?\s+the\s+others)\s+within\s+\**(\d+) s\**/g,
      'fallback promise',
    ],
  ]

  const stated = (doc: string) => {
    const text = read(doc)
    const claims: [Claim, number][] = []
    for (const [phrase, name] of PHRASES)
      for (const match of text.matchAll(phrase)) claims.push([name, Number(match[1])])
    // "N s … (`CONSTANT`)" within one sentence: the number the constant holds.
    const names = Object.keys(seconds).join('|')
    const named = new RegExp(`\\**(\\d+) s\\**(?:(?!\\.\\s|\\d+ s\\b)[^\`])*?\`(${names})\``, 'g')
    for (const match of text.matchAll(named)) claims.push([match[2] as Claim, Number(match[1])])
    return claims
  }

  it.each(DOCS)('%s states them as the code has them', (doc) => {
    for (const [name, value] of stated(doc)) expect(value, `${doc}: ${name}`).toBe(valueOf(name))
  })

  it('publishing.md states each, and deploying.md the promise', () => {
    const names = (doc: string) => new Set(stated(doc).map(([name]) => name))
    expect([...names('docs/publishing.md')].sort()).toEqual(
      [...Object.keys(seconds), 'fallback promise'].sort(),
    )
    expect([...names('docs/deploying.md')]).toEqual(
      expect.arrayContaining([
        'PUBLISH_PROMISE_MS',
        'OTHER_INSTANCE_MS',
        'DEFAULT_FALLBACK_REVALIDATE_SECONDS',
        'fallback promise',
      ]),
    )
  })
})

describe("deploying.md's nginx, as deploy/nginx.conf has it", () => {
  const conf = read('deploy/nginx.conf')
  const doc = read('docs/deploying.md').replace(/\s+/g, ' ')

  it('states every rate limit of the front', () => {
    const zones = [...conf.matchAll(/limit_req_zone \S+ zone=(\w+):\S+ rate=(\d+)r\/([sm]);/g)]
    expect(zones.length).toBeGreaterThan(0)
    for (const [, zone, rate, unit] of zones) {
      const said = `${rate} a ${unit === 's' ? 'second' : 'minute'}`
      expect(doc.includes(said), `deploying.md says "${said}" (${zone})`).toBe(true)
      const burst = new RegExp(`limit_req zone=${zone} burst=(\\d+)`).exec(conf)?.[1]
      if (zone === 'vigia_uncached')
        expect(doc.includes(`bursts of ${burst}`), `deploying.md says "bursts of ${burst}"`).toBe(
          true,
        )
    }
  })

  it('states how long it keeps a page', () => {
    const valid = /location \/ \{[\s\S]*?proxy_cache_valid [\d ]+ (\d+)s;/.exec(conf)?.[1]
    expect(valid).toBeDefined()
    expect(
      doc.includes(`keeps pages **${valid} s**`),
      `deploying.md says "keeps pages **${valid} s**"`,
    ).toBe(true)
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

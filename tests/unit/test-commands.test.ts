import { readdirSync } from 'node:fs'
import path from 'node:path'

import { beforeAll, describe, expect, it, vi } from 'vitest'

import { BUILDS } from '../../scripts/e2e-builds.cjs'

// The two test commands (scripts/test.mjs, docs/testing.md): `npm test` runs the Playwright
// projects marked `quick`, on one build, and must cover every page kind and the demo form's
// store; `npm run test:all` runs every project, each building what its `metadata.builds` names.

type Project = {
  name: string
  metadata?: { builds?: string[]; quick?: boolean }
  testMatch?: RegExp | RegExp[]
  testIgnore?: RegExp | RegExp[]
  grep?: RegExp
  grepInvert?: RegExp | RegExp[]
}

const e2e = path.resolve(__dirname, '..', 'e2e')
const specs = readdirSync(e2e).filter((file) => file.endsWith('.spec.ts'))
const list = (value?: RegExp | RegExp[]) => (value === undefined ? [] : [value].flat())
const runs = (project: Project, spec: string) =>
  (list(project.testMatch).length === 0 || list(project.testMatch).some((re) => re.test(spec))) &&
  !list(project.testIgnore).some((re) => re.test(spec))

let projects: Project[]

beforeAll(async () => {
  // Loading the config checks no build when E2E_BUILDS names none, as when scripts/test.mjs lists.
  vi.stubEnv('E2E_BUILDS', '')
  projects = ((await import('../../playwright.config')).default.projects ?? []) as Project[]
})

describe('the test commands', () => {
  it('every project names the builds it serves', () => {
    expect(projects.length).toBeGreaterThan(5)
    for (const project of projects) {
      expect(project.metadata?.builds, project.name).toEqual(expect.any(Array))
      for (const build of project.metadata!.builds!)
        expect(Object.keys(BUILDS), project.name).toContain(build)
    }
  })

  it('npm test builds one build only', () => {
    const quick = projects.filter((project) => project.metadata?.quick)
    expect(new Set(quick.flatMap((project) => project.metadata!.builds!))).toEqual(
      new Set(['site']),
    )
  })

  it.each([
    'page.spec.ts', // the home
    'campaign-pages.spec.ts',
    'articles.spec.ts', // articles, their listing and categories
    'legal.spec.ts',
    'not-found.spec.ts',
    'calculator.spec.ts',
    'demo-form.spec.ts',
    'demo-request-store.spec.ts', // the form's Supabase store
  ])('npm test runs %s', (spec) => {
    expect(specs).toContain(spec)
    expect(
      projects.filter((project) => project.metadata?.quick && runs(project, spec)),
    ).not.toEqual([])
  })

  it('request-only tests (@http) run once, in the http project of test:all, at no width', () => {
    const byName = new Map(projects.map((project) => [project.name, project]))
    const http = byName.get('http')
    expect(http?.grep?.test('a title @http')).toBe(true)
    // No browser, so no browser test in npm test (issue 68).
    expect(http?.metadata?.quick).toBeFalsy()
    for (const name of ['mobile', 'mobile-full', 'desktop'])
      expect(
        list(byName.get(name)?.grepInvert).map((re) => re.source),
        name,
      ).toContain(http!.grep!.source)
  })

  it('tests tagged @full leave npm test for the full suite, at the same width', () => {
    const byName = new Map(projects.map((project) => [project.name, project]))
    for (const [quick, full] of [
      ['mobile', 'mobile-full'],
      ['leads', 'leads-full'],
    ] as const) {
      const [q, f] = [byName.get(quick)!, byName.get(full)!]
      expect(q.metadata?.quick, quick).toBe(true)
      expect(f.metadata?.quick, full).toBeFalsy()
      expect(
        list(q.grepInvert).some((re) => re.test('a title @full')),
        quick,
      ).toBe(true)
      expect(f.grep?.test('a title @full'), full).toBe(true)
      expect(f.grep?.test('a title'), full).toBe(false)
      expect((f as { use?: unknown }).use, full).toEqual((q as { use?: unknown }).use)
      expect(list(f.testMatch).map(String), full).toEqual(list(q.testMatch).map(String))
    }
  })

  it('every spec runs in some project (npm run test:all runs them all)', () => {
    expect(specs.filter((spec) => !projects.some((project) => runs(project, spec)))).toEqual([])
  })
})

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { applyMigrations } from '@/lib/leads/db.mjs'

import { createTestDatabase, insertLeadRow, type TestDatabase } from './helpers/database'
import { readRecipe } from '../support/recipe'

// docs/analytics.md, "Adding a dimension", followed for a throwaway dimension that ships nowhere:
// the site's section (the path's first segment, /p for every campaign page). Step 1 (its entry in
// measures.mjs) is the mock below; step 2 is the doc; nothing else is added for it. Views then go
// through the real collector, a lead through the real composer, into the real migrations'
// tables, and the report, its query schema, its CSV header, the route's path filter and the
// Studio's tables must all know it.

const recipe = vi.hoisted(() => ({
  section: {
    name: 'section',
    label: 'Seção',
    capped: false,
    key: (visit: { page: string }) =>
      visit.page.startsWith('/') ? `/${visit.page.split('/')[1]}` : visit.page,
    report: 'section',
    file: 'secoes',
    none: '(sem seção)',
  },
}))
vi.mock('@/lib/analytics/measures.mjs', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/lib/analytics/measures.mjs')>()
  const DIMENSION_SPECS = [...original.DIMENSION_SPECS, recipe.section]
  // dimensionKeys, REPORT_GROUP_NAMES and KEY_COLUMNS are derived in the module: again here.
  const dimensionKeys = (visit: { page: string }) =>
    Object.fromEntries(DIMENSION_SPECS.map((spec) => [spec.name, spec.key(visit as never)]))
  const REPORT_GROUP_NAMES = [
    ...DIMENSION_SPECS.flatMap((spec) => ('report' in spec ? [spec.report] : [])),
    ...original.CONVERSION_GROUP_SPECS.map((spec) => spec.report),
    'day',
  ]
  const KEY_COLUMNS = {
    ...Object.fromEntries(
      DIMENSION_SPECS.flatMap((spec) => ('report' in spec ? [[spec.report, spec.label]] : [])),
    ),
    ...Object.fromEntries(original.CONVERSION_GROUP_SPECS.map((spec) => [spec.report, spec.label])),
    day: 'Dia',
  }
  return { ...original, DIMENSION_SPECS, dimensionKeys, REPORT_GROUP_NAMES, KEY_COLUMNS }
})

const { createCollector } = await import('@/lib/analytics/collect')
const { conversionVisit, dimensionKeys } = await import('@/lib/analytics/measures.mjs')
const { createSharedState } = await import('@/lib/analytics/shared-state')
const { readReport, writeBatch } = await import('@/lib/analytics/store')
const { KEY_COLUMNS, PATH_GROUPS, reportQuerySchema } =
  await import('@/lib/analytics/report-schema')
const { REPORT_TABLES } = await import('@/sanity/performance/performance-dashboard')
const { composeLeadRecord } = await import('@/lib/leads/compose')

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())

describe('an analytics dimension added by the recipe alone', { timeout: 60_000 }, () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
    await applyMigrations(test.db)
  }, 60_000)
  afterAll(async () => {
    await test?.close()
  })

  it('is counted in views and leads, and offered everywhere', async () => {
    const { db } = test
    const shared = createSharedState(undefined)
    const collector = createCollector({
      site: 'https://vigia.example',
      saltFor: shared.saltFor,
      firstSeen: shared.firstSeen,
      reading: shared.reading,
      isKnownPath: (path) => ['/', '/p/frotas', '/p/onibus', '/conteudos/artigo'].includes(path),
      write: (id, rows) => writeBatch(db, id, rows),
    })
    const views: Array<[string, string]> = [
      ['198.51.100.1', '/p/frotas'],
      ['198.51.100.2', '/p/onibus'],
      ['198.51.100.2', '/p/frotas'],
      ['198.51.100.3', '/conteudos/artigo'],
    ]
    for (const [ip, path] of views)
      expect(await collector.record({ ip, userAgent: CHROME, body: { path } })).toBe('counted')
    await collector.flush()
    const record = await composeLeadRecord(
      {
        name: 'Maria Souza',
        email: 'maria@transportadora.com.br',
        company: 'Transportadora Horizonte',
        phone: '(11) 99999-8888',
        fleetSize: '51-100',
        message: '',
      },
      { page: '/p/frotas' },
      'frotas',
    )
    // A lead stored before the dimension existed counts under none of its keys.
    await insertLeadRow(db, record.dadosCliente)
    // The demo request's action adds the keys of its visit (app/actions/demo-request.ts).
    record.dadosCliente.dimensoes = dimensionKeys(conversionVisit(record.dadosCliente, CHROME))
    expect(record.dadosCliente.dimensoes).toHaveProperty('section', '/p')

    const query = reportQuerySchema.parse({ from: today(), to: today(), by: 'section' })
    const figures = async () =>
      Object.fromEntries(
        (await readReport(db, query)).rows.map((row) => [row.key, [row.visitors, row.leads]]),
      )
    // Not an '(undefined)' row of it.
    expect(await figures()).toEqual({ '/p': [2, 0], '/conteudos': [1, 0] })
    await insertLeadRow(db, record.dadosCliente)
    expect(await figures()).toEqual({ '/p': [2, 1], '/conteudos': [1, 0] })
    // The older lead still counts under the dimensions it was stored with (its columns).
    const byPage = await readReport(db, { ...query, by: 'page' })
    expect(byPage.rows.find((row) => row.key === '/p/frotas')?.leads).toBe(2)

    // The CSV's and `npm run stats`'s header, the route's path filter, the Studio's tables.
    expect(KEY_COLUMNS).toHaveProperty('section', 'Seção')
    expect(PATH_GROUPS).not.toContain('section')
    // The last dimension's table, before those of the conversions alone (the materials).
    expect(REPORT_TABLES.filter((table) => !table.measures).at(-1)).toEqual({
      by: 'section',
      title: 'Por seção',
      keyHeading: 'Seção',
      emptyKeyLabel: '(sem seção)',
    })
  })

  it('is the file list docs/analytics.md gives', () => {
    const { files: steps, statedCount } = readRecipe('docs/analytics.md', '### Adding a dimension')
    // Step 1 is the mock above, step 2 the doc.
    expect(steps).toEqual(['lib/analytics/measures.mjs', 'docs/analytics.md'])
    // The count the doc states is its list's length, and the bound.
    expect(statedCount).toBe(steps.length)
    expect(steps.length).toBeLessThanOrEqual(4)
  })
})

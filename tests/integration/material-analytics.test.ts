import fs from 'node:fs'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { reportCsv } from '@/lib/analytics/csv'
import { queryReport } from '@/lib/analytics/report-db.mjs'
import { reportQuerySchema, reportSchema, type ReportGroup } from '@/lib/analytics/report-schema'
import { writeBatch } from '@/lib/analytics/store'
import { composeLeadRecord } from '@/lib/leads/compose'
import { applyMigrations, queryAsAnon, type Database } from '@/lib/leads/db.mjs'

import {
  backendLabel,
  createTestDatabase,
  insertLeadRow,
  sqlStateOf,
  type TestDatabase,
} from './helpers/database'

// Materials' downloads in the figures (issue 65, docs/analytics.md "Materials"): conversions stored
// in public.conversoes_material, read through analytics.material_counts
// (20270320000100_material_analytics.sql) and joined to the views per dimension as leads are, on
// PGlite or on the DATABASE_URL PostgreSQL. Conversions are inserted as the owner (the form's store
// is not this test's); views go through the store as the collector writes them.

const D1 = '2026-02-10'
const D2 = '2026-02-11'
const CHECKLIST = '/materiais/checklist-lgpd'
const hash = (n: number) => n.toString(16).padStart(32, '0')
const visitors = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => hash(from + i))

type Conversion = {
  at: string
  material: string
  identificador: string
  origem_pagina?: string
  origem_entrada?: string
  utm_source?: string
  utm_campaign?: string
  referrer_host?: string
  variant?: string
}

async function storeConversion(db: Database, conversion: Conversion) {
  const { at, ...columns } = {
    nome: 'Maria Souza',
    email: 'maria@transportadora.com.br',
    dados_formulario: JSON.stringify({ company: 'Transportadora Horizonte' }),
    ...conversion,
  }
  const names = Object.keys(columns)
  await db.query(
    `insert into public.conversoes_material (created_at, ${names.join(', ')})
     values ($1::timestamptz, ${names.map((_, i) => `$${i + 2}`).join(', ')})`,
    [at, ...Object.values(columns)],
  )
}

describe(`materials' downloads in the figures (${backendLabel})`, { timeout: 60_000 }, () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
    await applyMigrations(test.db)
    const { db } = test
    await writeBatch(db, '00000000-0000-4000-8000-000000006501', [
      { day: D1, dimension: 'site', key: 'total', visits: 14, visitors: visitors(1, 7) },
      { day: D1, dimension: 'page', key: CHECKLIST, visits: 10, visitors: visitors(1, 5) },
      { day: D1, dimension: 'page', key: '/p/frotas', visits: 4, visitors: visitors(6, 2) },
      { day: D1, dimension: 'landing', key: '/p/frotas', visits: 2, visitors: visitors(6, 2) },
      { day: D1, dimension: 'campaign', key: 'verao', visits: 6, visitors: visitors(1, 4) },
      { day: D1, dimension: 'source', key: 'google', visits: 6, visitors: visitors(1, 4) },
    ])
    // São Paulo days: 23:30 there on the 10th is the 11th in UTC, and still the 10th here; the
    // last minute of the 9th is outside the period.
    for (const conversion of [
      {
        at: `${D1}T10:00:00-03:00`,
        material: 'checklist-lgpd',
        identificador: 'checklist-lgpd',
        origem_pagina: CHECKLIST,
        origem_entrada: '/p/frotas',
        utm_source: 'Google',
        utm_campaign: 'verao',
        variant: 'titulo-campanha/fadiga',
      },
      {
        at: `${D1}T23:30:00-03:00`,
        material: 'checklist-lgpd',
        identificador: 'checklist-lgpd',
        origem_pagina: CHECKLIST,
        referrer_host: 'www.bing.com',
      },
      {
        at: `${D2}T09:00:00-03:00`,
        material: 'ebook-fadiga',
        identificador: 'ebook-fadiga-2026',
        origem_pagina: '/p/frotas',
        origem_entrada: '/p/frotas',
        utm_source: 'google',
        utm_campaign: 'verao',
      },
      // Stored without its page (never by the site): its material's page gets it.
      { at: `${D2}T11:00:00-03:00`, material: 'ebook-fadiga', identificador: 'ebook-fadiga-2026' },
      {
        at: '2026-02-09T23:59:00-03:00',
        material: 'checklist-lgpd',
        identificador: 'checklist-lgpd',
        origem_pagina: CHECKLIST,
      },
    ] satisfies Conversion[])
      await storeConversion(db, conversion)
    // One demo request from the campaign page: a lead, never a download.
    const lead = await composeLeadRecord(
      {
        name: 'João Lima',
        email: 'joao@frota.com.br',
        company: 'Frota Sul',
        phone: '(11) 98888-7777',
        fleetSize: '51-100',
        message: '',
      },
      { utm_source: 'google', utm_campaign: 'verao', landing: '/p/frotas' },
      'frotas',
    )
    await insertLeadRow(db, lead.dadosCliente)
    await db.query(`update public.dados_cliente set created_at = $1::timestamptz`, [
      `${D1}T15:00:00-03:00`,
    ])
  }, 60_000)

  afterAll(async () => {
    await test?.close()
  })

  /** The report as GET /api/analytics answers it (its query parsed, its answer checked). */
  async function report(by: ReportGroup, path?: string) {
    const query = reportQuerySchema.parse({ from: D1, to: D2, by, ...(path ? { path } : {}) })
    return reportSchema.parse(await queryReport(test.db, query))
  }
  const figures = async (by: ReportGroup, path?: string) =>
    Object.fromEntries(
      (await report(by, path)).rows.map((row) => [
        row.key,
        [row.visitors, row.leads, row.downloads],
      ]),
    )

  it('gives analytics_reader the counts only, and no one else even them', async () => {
    const { db } = test
    const as = (role: string, sql: string) =>
      db.transaction(async (tx) => {
        await tx.exec(`set local role ${role}`)
        return tx.query(sql)
      })
    const counts = `select * from analytics.material_counts('${D1}', '${D2}')`
    expect((await as('analytics_reader', counts)).rows).toHaveLength(4)
    expect(
      await sqlStateOf(as('analytics_reader', 'select * from public.conversoes_material')),
    ).toBe('42501')
    expect(await sqlStateOf(as('analytics_writer', counts))).toBe('42501')
    expect(await sqlStateOf(queryAsAnon(db, counts))).toBe('42501')
  })

  it('credits each download to its page, entry page, campaign, source and variant as a lead, leads and conversion unchanged', async () => {
    // [visitors, leads, downloads]
    expect(await figures('page')).toEqual({
      [CHECKLIST]: [5, 0, 2],
      '/p/frotas': [2, 1, 1],
      '/materiais/ebook-fadiga': [0, 0, 1],
    })
    const page = Object.fromEntries((await report('page')).rows.map((row) => [row.key, row]))
    // Conversion is leads ÷ visitors: two downloads of the checklist are no conversion of it.
    expect(page[CHECKLIST]).toMatchObject({ visits: 10, conversion: 0 })
    expect(page['/p/frotas']).toMatchObject({ visits: 4, conversion: 0.5 })
    expect(await figures('landing')).toEqual({
      '/p/frotas': [2, 1, 2],
      [CHECKLIST]: [0, 0, 1],
      '/materiais/ebook-fadiga': [0, 0, 1],
    })
    expect(await figures('campaign')).toEqual({
      verao: [4, 1, 2],
      '(sem campanha)': [0, 0, 2],
    })
    // utm_source lower-cased, else the referrer's host, else direct.
    expect(await figures('source')).toEqual({
      google: [4, 1, 2],
      'www.bing.com': [0, 0, 1],
      '(direto)': [0, 0, 1],
    })
    expect(await figures('variant')).toEqual({
      'titulo-campanha/fadiga': [0, 0, 1],
      '(sem experimento)': [0, 1, 3],
    })
    expect(await figures('day')).toEqual({ [D1]: [7, 1, 2], [D2]: [0, 0, 2] })
    // One page's: its days, and its row as an entry page (the Studio's tab).
    expect(await figures('day', CHECKLIST)).toEqual({ [D1]: [5, 0, 2], [D2]: [0, 0, 0] })
    expect(await figures('landing', '/p/frotas')).toEqual({ '/p/frotas': [2, 1, 2] })
  })

  it('can be applied again without changing a figure or a privilege', async () => {
    const sql = fs.readFileSync(
      path.resolve('supabase/migrations/20270320000100_material_analytics.sql'),
      'utf8',
    )
    const before = [await figures('page'), await figures('material')]
    for (let round = 0; round < 2; round++) await test.db.exec(sql)
    expect([await figures('page'), await figures('material')]).toEqual(before)
    expect(
      await sqlStateOf(queryAsAnon(test.db, `select analytics.material_counts('${D1}', '${D2}')`)),
    ).toBe('42501')
  })

  it('groups the downloads by material identifier, most first, with no visit counted under them', async () => {
    const { rows } = await report('material')
    expect(rows.map((row) => [row.key, row.downloads, row.visits, row.leads])).toEqual([
      ['checklist-lgpd', 2, 0, 0],
      ['ebook-fadiga-2026', 2, 0, 0],
    ])
    expect(reportCsv(rows, 'material')).toBe(
      '\uFEFFMaterial;Downloads de materiais\r\nchecklist-lgpd;2\r\nebook-fadiga-2026;2\r\n',
    )
    const byPage = reportCsv((await report('page')).rows, 'page')
      .slice(1)
      .split('\r\n')
    expect(byPage[0]).toBe(
      'Página;Visitas;Visitantes;Leads;Conversão;Downloads de materiais;WhatsApp;Telefone;' +
        'E-mail;Tempo médio de leitura (s);Rolagem média (%);LCP p75 (ms);INP p75 (ms);CLS p75',
    )
    expect(byPage[1]).toBe(`${CHECKLIST};10;5;0;0;2;0;0;0;;;;;`)
  })
})

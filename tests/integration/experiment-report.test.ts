import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createCollector, saoPauloDay, visitorHash } from '@/lib/analytics/collect'
import { reportCsv } from '@/lib/analytics/csv'
import { reportQuerySchema, reportSchema } from '@/lib/analytics/report-schema'
import { createSharedState } from '@/lib/analytics/shared-state'
import { readReport, writeBatch } from '@/lib/analytics/store'
import { assignVariant } from '@/lib/experiments/assign'
import type { ExperimentDefinition } from '@/lib/experiments/definition'
import { experimentSummaries, judgeVariants } from '@/lib/experiments/report'
import { verdict } from '@/lib/experiments/verdict'
import { composeLeadRecord } from '@/lib/leads/compose'
import { applyMigrations } from '@/lib/leads/db.mjs'

import { createTestDatabase, insertLeadRow, type TestDatabase } from './helpers/database'

// GET /api/analytics?by=variant end to end but for the HTTP layer (lib/analytics/index.ts
// readReport does exactly this): views through the real collector, leads stored with their
// variant column, the report read back by variant, judged against the default on the experiment's
// goal, and written as the pt-BR CSV.

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())

const EXPERIMENTS: ExperimentDefinition[] = [
  {
    key: 'titulo-campanha',
    title: 'Título da campanha',
    pagePath: '/p/frotas',
    goal: 'leads',
    visibleFrom: null,
    visibleUntil: null,
    variants: [
      { key: 'controle', label: 'Padrão', weight: 1 },
      { key: 'fadiga', label: 'Fadiga em tempo real', weight: 1 },
      { key: 'curta', label: 'Curta', weight: 1 },
    ],
  },
]

describe('the report by variant', { timeout: 120_000 }, () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
    await applyMigrations(test.db)
  }, 60_000)
  afterAll(async () => {
    await test?.close()
  })

  it('counts each variant, joins its leads and judges it against the default', async () => {
    const { db } = test
    const shared = createSharedState(undefined)
    const collector = createCollector({
      site: 'https://vigia.example',
      saltFor: shared.saltFor,
      firstSeen: shared.firstSeen,
      reading: shared.reading,
      isKnownPath: () => true,
      experiments: () => EXPERIMENTS,
      holdsShare: shared.holdsShare,
      write: (id, rows) => writeBatch(db, id, rows),
    })
    // Each visitor names the variant it is served (collect.ts checks it): addresses are picked
    // by their assignment, as proxy.ts makes it.
    const salt = await shared.saltFor(saoPauloDay(Date.now()))
    const servedTo = (address: string) =>
      `titulo-campanha/${assignVariant(visitorHash(salt, address, CHROME, 'https://vigia.example'), 'titulo-campanha', EXPERIMENTS[0]!.variants)}`
    // 120 visitors see the default, 120 'fadiga', 40 'curta' (too few to judge).
    const arms: Array<[string, number, number]> = [
      ['titulo-campanha/controle', 120, 5],
      ['titulo-campanha/fadiga', 120, 12],
      ['titulo-campanha/curta', 40, 1],
    ]
    let ip = 0
    for (const [variant, visitors] of arms)
      for (let i = 0; i < visitors; i++) {
        let address: string
        do {
          ip += 1
          address = `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`
        } while (servedTo(address) !== variant)
        const body = { path: '/p/frotas', entry: true, variant }
        expect(await collector.record({ ip: address, userAgent: CHROME, body })).toBe('counted')
      }
    await collector.flush()
    const request = {
      name: 'Maria Souza',
      email: 'maria@transportadora.com.br',
      company: 'Transportadora Horizonte',
      phone: '(11) 99999-8888',
      fleetSize: '51-100' as const,
      message: '',
    }
    for (const [variant, , leads] of arms)
      for (let i = 0; i < leads; i++) {
        const record = await composeLeadRecord(request, { page: '/p/frotas', variant }, 'frotas')
        await insertLeadRow(db, record.dadosCliente)
      }
    // A lead from before any experiment counts under '(sem experimento)'.
    await insertLeadRow(db, (await composeLeadRecord(request, { page: '/' })).dadosCliente)

    const query = reportQuerySchema.parse({ from: today(), to: today(), by: 'variant' })
    const report = await readReport(db, query)
    const rows = judgeVariants(report.rows, EXPERIMENTS)
    const answer = reportSchema.parse({
      ...report,
      rows,
      experiments: experimentSummaries(EXPERIMENTS),
    })
    const row = (key: string) => answer.rows.find((r) => r.key === key)!

    expect(row('titulo-campanha/controle')).toMatchObject({
      visitors: 120,
      leads: 5,
      chanceToBeatControl: null,
      expectedLoss: null,
      verdictMessage: null,
    })
    const expected = verdict({ visitors: 120, conversions: 5 }, { visitors: 120, conversions: 12 })
    if (expected.kind !== 'ready') throw new Error('expected a verdict')
    expect(row('titulo-campanha/fadiga')).toMatchObject({
      visitors: 120,
      leads: 12,
      chanceToBeatControl: expected.chanceToBeatControl,
      expectedLoss: expected.expectedLoss,
      verdictMessage: null,
    })
    // 12 of 120 against 5 of 120: very likely better.
    expect(row('titulo-campanha/fadiga').chanceToBeatControl).toBeGreaterThan(0.95)
    expect(row('titulo-campanha/curta')).toMatchObject({
      visitors: 40,
      leads: 1,
      chanceToBeatControl: null,
      expectedLoss: null,
    })
    expect(row('titulo-campanha/curta').verdictMessage).toMatch(/^Ainda não há dados suficientes/)
    expect(row('(sem experimento)')).toMatchObject({ leads: 1, chanceToBeatControl: null })
    expect(answer.experiments).toEqual([
      expect.objectContaining({ key: 'titulo-campanha', status: 'running', goal: 'leads' }),
    ])

    // The same rows as the pt-BR CSV, the verdict after the measures.
    const csv = reportCsv(answer.rows, 'variant').split('\r\n')
    expect(csv[0]).toBe(
      '\uFEFFVersão;Visitas;Visitantes;Leads;Conversão;Downloads de materiais;WhatsApp;Telefone;E-mail;' +
        'Tempo médio de leitura (s);Rolagem média (%);Chance de superar o padrão;Perda esperada;Veredito',
    )
    const fadiga = csv.find((line) => line.startsWith('titulo-campanha/fadiga;'))!
    const chance = String(Math.round(expected.chanceToBeatControl * 10_000) / 10_000).replace(
      '.',
      ',',
    )
    expect(fadiga.split(';').at(-3)).toBe(chance)
    expect(csv.find((line) => line.startsWith('titulo-campanha/curta;'))).toContain(
      'Ainda não há dados suficientes',
    )
  })

  it('judges an experiment on contact clicks when that is its goal', () => {
    const rows = [
      { key: 'x/controle', visitors: 200, leads: 0, whatsapp: 6, phone: 2, email: 0 },
      { key: 'x/b', visitors: 200, leads: 40, whatsapp: 3, phone: 0, email: 2 },
    ]
    const [, b] = judgeVariants(rows, [{ ...EXPERIMENTS[0]!, key: 'x', goal: 'contacts' }])
    const expected = verdict({ visitors: 200, conversions: 8 }, { visitors: 200, conversions: 5 })
    expect(expected.kind).toBe('ready')
    if (expected.kind === 'ready') expect(b!.chanceToBeatControl).toBe(expected.chanceToBeatControl)
    // Its 40 leads do not count for a contacts experiment: it is worse, not better.
    expect(b!.chanceToBeatControl).toBeLessThan(0.5)
  })
})

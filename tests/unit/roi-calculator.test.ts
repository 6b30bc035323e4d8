import { createSchema, validateDocument, type SanityDocument, type Workspace } from 'sanity'
import { evaluate, parse } from 'groq-js'
import { describe, expect, it } from 'vitest'

import { calculatorPart, composeLeadRecord } from '@/lib/leads/compose'
import { estimateRoi, fleetBand, ROI_LIMITS, type RoiAssumptions } from '@/lib/roi/calculator'
import {
  claimDisagreements,
  parseClaimMonths,
  parseClaimPercent,
  parseClaimReais,
} from '@/lib/roi/claims'
import { assumptionsFrom } from '@/lib/roi/content'
import { formatMonths, formatReais, formatRoi, plainSpaces } from '@/lib/roi/format'
import { decodeHandoff, describeInputs, encodeHandoff, parseCalculator } from '@/lib/roi/input'
import { demoRequestSchema } from '@/lib/validations/demo-request'
import { queryDataset } from '@/lib/content/bundled'
import { ROI_CALCULATOR_QUERY } from '@/sanity/lib/queries'
import { schemaTypes } from '@/sanity/schema-types'
import type { ROI_CALCULATOR_QUERY_RESULT } from '@/sanity/types'

import { bundledDocuments, documentById } from './content-support'

const documents = bundledDocuments()
const content = await queryDataset<ROI_CALCULATOR_QUERY_RESULT>(ROI_CALCULATOR_QUERY, {}, documents)
const bundled = assumptionsFrom(content)!

/** A small seeded generator (mulberry32): the same cases on every run, so a failure reproduces. */
function random(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  }
}

const CASES = 2000
const rng = random(20261126)
/** Any number, including the hostile ones a form or a Studio edit can produce. */
const anyNumber = () =>
  rng.pick([
    () => rng.int(-1000, 1000),
    () => rng.int(0, 200_000),
    () => rng.next() * 1e9,
    () => -rng.next() * 1e9,
    () => rng.pick([0, -0, 1, NaN, Infinity, -Infinity, 1e9, 1e300, Number.MAX_VALUE, 0.5]),
  ])()
const anyAssumptions = (): RoiAssumptions => ({
  costPerVehicle: anyNumber(),
  incidentsPerVehicle: anyNumber(),
  incidentCost: anyNumber(),
  avoidedPercent: anyNumber(),
})
const validAssumptions = (): RoiAssumptions => ({
  costPerVehicle: rng.int(1, 100_000),
  incidentsPerVehicle: rng.int(0, 300) / 100,
  incidentCost: rng.int(0, 500_000),
  avoidedPercent: rng.int(0, 100),
})

describe('the bundled assumptions', () => {
  it('give exactly the claims for a fleet of 50: R$ 150 mil a year, 6 months, 300%', () => {
    expect(content?.referenceFleet).toBe(50)
    const estimate = estimateRoi({ fleet: 50, incidents: null, incidentCost: null }, bundled)
    expect(estimate.cost).toBe(75_000)
    expect(estimate.yearlySavings).toBe(150_000)
    expect(estimate.paybackMonths).toBe(6)
    expect(estimate.roiTwoYears).toBe(3)
    expect(plainSpaces(formatReais(estimate.yearlySavings))).toBe('R$ 150 mil')
    expect(formatMonths(estimate.paybackMonths)).toBe('6 meses')
    expect(formatRoi(estimate.roiTwoYears)).toBe('300%')
  })

  it('agree with the claim documents the calculator names', () => {
    const calculator = documentById<Record<string, { _ref: string }>>(documents, 'roiCalculator')
    const value = (field: string) =>
      documentById<{ value: string }>(documents, calculator[field]!._ref).value
    expect(
      claimDisagreements(bundled, content!.referenceFleet!, {
        savings: value('savingsClaim'),
        payback: value('paybackClaim'),
        roi: value('roiClaim'),
      }),
    ).toEqual([])
  })

  it('say where each comes from, or that it is an example to confirm with the product team', () => {
    for (const key of [
      'costPerVehicle',
      'incidentsPerVehicle',
      'incidentCost',
      'avoidedPercent',
    ] as const) {
      const note = content?.[key]?.note ?? ''
      expect(note, key).toMatch(/\S{3}/)
      // No source is bundled: every assumption must say it is an example.
      expect(note.toLowerCase(), key).toContain('exemplo a confirmar com a equipe de produto')
    }
  })
})

describe('claimDisagreements', () => {
  const claims = { savings: 'R$ 150 mil', payback: '6 meses', roi: '300%' }

  it('names each claim the assumptions no longer reproduce', () => {
    expect(claimDisagreements(bundled, 50, { ...claims, savings: 'R$ 160 mil' })).toEqual([
      expect.stringMatching(/50 veículos economizam R\$ 150 mil por ano, mas .* R\$ 160 mil/),
    ])
    expect(
      claimDisagreements({ ...bundled, costPerVehicle: 2000 }, 50, claims).map((p) =>
        p.slice(0, 40),
      ),
    ).toHaveLength(2)
    // Payback and ROI do not depend on the fleet size in this model; the savings do.
    expect(claimDisagreements(bundled, 60, claims)).toEqual([
      expect.stringContaining('60 veículos economizam R$ 180 mil por ano'),
    ])
    expect(claimDisagreements(bundled, 50, { ...claims, roi: 'trezentos' })).toEqual([
      expect.stringContaining('Não foi possível ler o ROI'),
    ])
  })

  it('reads the claims as marketing writes them', () => {
    expect(parseClaimReais('R$ 150 mil')).toBe(150_000)
    expect(parseClaimReais('R$\u00a01,2 mi')).toBe(1_200_000)
    expect(parseClaimReais('R$ 150.000')).toBe(150_000)
    expect(parseClaimReais('150 mil')).toBeNull()
    expect(parseClaimMonths('6 meses')).toBe(6)
    expect(parseClaimMonths('1 mês')).toBe(1)
    expect(parseClaimPercent('300%')).toBe(3)
    expect(parseClaimPercent('300')).toBeNull()
  })
})

describe('estimateRoi, properties over seeded random cases', () => {
  it('never gives NaN, Infinity or a negative amount, whatever the inputs and assumptions', () => {
    for (let i = 0; i < CASES; i++) {
      const inputs = {
        fleet: anyNumber(),
        incidents: rng.next() < 0.3 ? null : anyNumber(),
        incidentCost: rng.next() < 0.3 ? null : anyNumber(),
      }
      const assumptions = anyAssumptions()
      const estimate = estimateRoi(inputs, assumptions)
      const context = JSON.stringify({ inputs, assumptions, estimate })
      for (const [key, value] of Object.entries(estimate)) {
        if (typeof value === 'boolean' || value === null) continue
        expect(Number.isFinite(value), `${key} ${context}`).toBe(true)
        expect(value, `${key} ${context}`).toBeGreaterThanOrEqual(0)
      }
      expect(estimate.fleet).toBeGreaterThanOrEqual(ROI_LIMITS.fleet.min)
      expect(estimate.fleet).toBeLessThanOrEqual(ROI_LIMITS.fleet.max)
      // Every figure reads as text, never "NaN", "Infinity" or "undefined".
      const shown = [
        formatReais(estimate.yearlySavings),
        formatReais(estimate.cost),
        formatMonths(estimate.paybackMonths),
        formatRoi(estimate.roiTwoYears),
      ].join(' ')
      expect(shown, context).not.toMatch(/NaN|Infinity|∞|undefined|-\s?R|-\d/)
    }
  })

  it('never lowers the cost, nor the estimated savings, as the fleet grows', () => {
    for (let i = 0; i < CASES; i++) {
      const assumptions = validAssumptions()
      const small = rng.int(1, 99_999)
      const large = rng.int(small, 100_000)
      const incidents = rng.next() < 0.5 ? null : rng.int(0, 1000)
      const incidentCost = rng.next() < 0.5 ? null : rng.int(0, 100_000)
      const a = estimateRoi({ fleet: small, incidents, incidentCost }, assumptions)
      const b = estimateRoi({ fleet: large, incidents, incidentCost }, assumptions)
      expect(b.cost, JSON.stringify({ assumptions, small, large })).toBeGreaterThanOrEqual(a.cost)
      if (incidents === null) expect(b.yearlySavings).toBeGreaterThanOrEqual(a.yearlySavings)
    }
  })

  it('keeps payback and ROI consistent with the savings and the cost', () => {
    for (let i = 0; i < CASES; i++) {
      const assumptions = validAssumptions()
      const e = estimateRoi(
        { fleet: rng.int(1, 100_000), incidents: rng.int(0, 5000), incidentCost: null },
        assumptions,
      )
      if (e.yearlySavings === 0) expect(e.paybackMonths).toBeNull()
      else expect(e.paybackMonths! * e.yearlySavings).toBeCloseTo(e.cost * 12, 3)
      // Recovered within 2 years exactly when there is a (non-negative) 2-year ROI.
      expect(e.roiTwoYears !== null).toBe(2 * e.yearlySavings >= e.cost)
    }
  })

  it('holds the claims for 50 vehicles with any assumptions built the way the bundled ones are', () => {
    // Any cost per vehicle c, with savings per vehicle 2c a year: payback 6, ROI 300%.
    for (let i = 0; i < 200; i++) {
      const cost = rng.int(1, 5000)
      const e = estimateRoi(
        { fleet: 50, incidents: null, incidentCost: null },
        {
          costPerVehicle: cost,
          incidentsPerVehicle: 1,
          incidentCost: 2 * cost,
          avoidedPercent: 100,
        },
      )
      expect(formatMonths(e.paybackMonths)).toBe('6 meses')
      expect(formatRoi(e.roiTwoYears)).toBe('300%')
    }
  })
})

describe('fleetBand', () => {
  it.each([
    [1, '1-10'],
    [10, '1-10'],
    [11, '11-50'],
    [50, '11-50'],
    [51, '51-100'],
    [100, '51-100'],
    [101, '101-500'],
    [120, '101-500'],
    [500, '101-500'],
    [501, '500+'],
    [100_000, '500+'],
  ] as const)('%i vehicles are the band %s', (fleet, band) => {
    expect(fleetBand(fleet)).toBe(band)
  })
})

describe('reading what the visitor typed', () => {
  it.each([
    ['', 'frota', 'Informe quantos veículos tem a frota.'],
    ['0', 'frota', 'A frota precisa ter pelo menos 1 veículo.'],
    ['-5', 'frota', 'A frota precisa ter pelo menos 1 veículo.'],
    ['12,5', 'frota', 'Informe um número inteiro de veículos, como 120.'],
    ['12.5', 'frota', 'Informe um número inteiro de veículos, como 120.'],
    ['1e9', 'frota', 'Informe o número de veículos só com algarismos, como 120.'],
    ['abc', 'frota', 'Informe o número de veículos só com algarismos, como 120.'],
    [
      '1000000000',
      'frota',
      'A calculadora vai até 100.000 veículos. Para uma frota maior, fale com a gente.',
    ],
    [
      '9'.repeat(400),
      'frota',
      'A calculadora vai até 100.000 veículos. Para uma frota maior, fale com a gente.',
    ],
    ['-1', 'sinistros', 'O número de sinistros não pode ser negativo.'],
    [
      'x',
      'sinistros',
      'Informe os sinistros por ano só com algarismos, como 12, ou deixe em branco.',
    ],
    ['25.000,50', 'custo', 'Informe o custo em reais inteiros, sem centavos.'],
  ] as const)('%j in %s: %s', (value, field, message) => {
    const values = { frota: '50', sinistros: '', custo: '', [field]: value }
    expect(parseCalculator(values)).toEqual({ ok: false, errors: { [field]: message } })
  })

  it.each([
    [
      { frota: '120', sinistros: '', custo: '' },
      { fleet: 120, incidents: null, incidentCost: null },
    ],
    [
      { frota: ' 1.200 ', sinistros: '0', custo: 'R$ 25.000' },
      { fleet: 1200, incidents: 0, incidentCost: 25000 },
    ],
    [
      { frota: '100000', sinistros: '24', custo: '25.000,00' },
      { fleet: 100000, incidents: 24, incidentCost: 25000 },
    ],
  ])('%j reads as %j', (values, inputs) => {
    expect(parseCalculator(values)).toEqual({ ok: true, inputs })
  })

  it('never lets a random string through as anything but a valid input or a message', () => {
    const alphabet = '0123456789.,-+eE R$abc\u00a0'
    for (let i = 0; i < CASES; i++) {
      const text = Array.from({ length: rng.int(0, 12) }, () => rng.pick([...alphabet])).join('')
      const result = parseCalculator({ frota: text, sinistros: text, custo: text })
      if (result.ok) {
        const { fleet, incidents, incidentCost } = result.inputs
        expect(Number.isInteger(fleet) && fleet >= 1 && fleet <= 100_000, text).toBe(true)
        for (const value of [incidents, incidentCost])
          expect(value === null || (Number.isInteger(value) && value >= 0), text).toBe(true)
      } else {
        for (const message of Object.values(result.errors)) expect(message, text).toMatch(/^[A-Z]/)
      }
    }
  })

  it('carries the inputs to the demo form and back, refusing anything else', () => {
    const inputs = { fleet: 120, incidents: null, incidentCost: 30000 }
    const handoff = encodeHandoff(inputs)
    expect(handoff).toBe('frota=120&sinistros=&custo=30000')
    expect(decodeHandoff(handoff)).toEqual(inputs)
    expect(describeInputs(inputs)).toBe(
      '120 veículos, sinistros por ano estimados pela calculadora, custo médio de R$ 30.000 por sinistro',
    )
    for (const forged of [
      'frota=0',
      'frota=120&economia=999999',
      'frota=1e9',
      'frota=120&sinistros=-1',
      `frota=${'1'.repeat(80)}`,
      'frota=120<script>',
    ])
      expect(decodeHandoff(forged), forged).toBeNull()
  })
})

describe('the demo request with the calculator inputs', () => {
  const request = {
    name: 'Maria Souza',
    email: 'maria@transportadora.com.br',
    company: 'Transportadora Horizonte',
    phone: '(11) 99999-8888',
    fleetSize: '101-500' as const,
    message: 'Rotas noturnas.',
  }

  it('is validated by the shared schema: inputs only, in range, with a Portuguese message', async () => {
    expect(
      (
        await demoRequestSchema.safeParseAsync({
          ...request,
          calculadora: 'frota=120&sinistros=&custo=',
        })
      ).success,
    ).toBe(true)
    expect((await demoRequestSchema.safeParseAsync({ ...request, calculadora: '' })).success).toBe(
      true,
    )
    expect((await demoRequestSchema.safeParseAsync(request)).success).toBe(true)
    const forged = await demoRequestSchema.safeParseAsync({ ...request, calculadora: 'frota=0' })
    expect(forged.success).toBe(false)
    expect(forged.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      [
        'calculadora',
        'Os números da calculadora não chegaram certos. Refaça a simulação ou remova-a do pedido.',
      ],
    ])
  })

  it('adds one "Calculadora" part after SPEC’s fields, whose order stays as it is', async () => {
    const estimate = estimateRoi({ fleet: 120, incidents: null, incidentCost: null }, bundled)
    const record = await composeLeadRecord(request, { utm_source: 'google' }, undefined, {
      calculator: estimate,
    })
    const line =
      'Calculadora: 120 veículos, 24 sinistros/ano (estimados), custo médio R$ 25.000 por sinistro (premissa); economia estimada R$ 360 mil/ano, investimento R$ 180 mil, payback 6 meses, ROI em 2 anos 300%'
    expect(calculatorPart(estimate)).toBe(line)
    const parts = record.dadosCliente.atendimento_ia.split(' | ')
    expect(parts.map((part) => part.split(':')[0])).toEqual([
      expect.stringMatching(/^Dados do formulário/),
      'Empresa',
      'Tamanho da frota',
      'E-mail',
      'Mensagem do visitante',
      'Calculadora',
      'Contato por WhatsApp',
      'Origem',
    ])
    expect(parts[5]).toBe(line)
    const userParts = record.chatMessage.user_message.split(' | ')
    expect(userParts.map((part) => part.split(':')[0])).toEqual([
      expect.stringMatching(/^Solicitação de demonstração/),
      'Empresa',
      'E-mail',
      'Tamanho da frota',
      'Mensagem do visitante',
      'Calculadora',
      'Contato por WhatsApp',
      'Origem',
    ])
    // Without the calculator the texts are exactly as before.
    const without = await composeLeadRecord(request, { utm_source: 'google' })
    expect(without.dadosCliente.atendimento_ia).toBe(
      record.dadosCliente.atendimento_ia.replace(` | ${line}`, ''),
    )
  })

  it('stays within the database bound with every field at its longest', async () => {
    const estimate = estimateRoi(
      { fleet: 99_999, incidents: 99_999, incidentCost: 4_999_999 },
      {
        costPerVehicle: 999_999,
        incidentsPerVehicle: 9.99,
        incidentCost: 4_999_999,
        avoidedPercent: 99.9,
      },
    )
    const record = await composeLeadRecord(
      {
        name: 'n'.repeat(120),
        company: 'c'.repeat(120),
        email: `${'e'.repeat(64)}@${'d'.repeat(180)}.com`,
        phone: '',
        fleetSize: '500+',
        message: 'm'.repeat(2000),
      },
      {
        utm_source: 's'.repeat(500),
        utm_medium: 'm'.repeat(500),
        utm_campaign: 'c'.repeat(500),
        referrer: 'r'.repeat(500),
      },
      'a'.repeat(60),
      { requestKey: 'f'.repeat(64), calculator: estimate },
    )
    expect(record.dadosCliente.atendimento_ia.length).toBeLessThanOrEqual(4000)
    expect(record.chatMessage.user_message.length).toBeLessThanOrEqual(4000)
  })
})

describe('the Studio warns where it sees both the assumptions and the claims', () => {
  const schema = createSchema({ name: 'default', types: schemaTypes })
  const workspace = { schema } as unknown as Workspace
  const warningsOf = async (document: SanityDocument, dataset: SanityDocument[]) => {
    const client = {
      withConfig: () => client,
      fetch: async (query: string, params: Record<string, unknown>) =>
        (await evaluate(parse(query, { params }), { dataset, params })).get(),
    }
    const markers = await validateDocument({
      document,
      workspace,
      environment: 'studio',
      getDocumentExists: async () => true,
      getClient: (() => client) as never,
    })
    return markers.filter((marker) => marker.level === 'warning').map((marker) => marker.message)
  }
  const raw = documents as unknown as SanityDocument[]
  const calculator = raw.find((doc) => doc._id === 'roiCalculator')!
  const savings = raw.find((doc) => doc._id === 'claim-annual-savings')!

  it('says nothing while they agree', async () => {
    expect(await warningsOf(calculator, raw)).toEqual([])
    expect(await warningsOf(savings, raw)).toEqual([])
  })

  it('warns on the calculator when an assumption changes the figures', async () => {
    const edited = {
      ...calculator,
      costPerVehicle: { value: 2000, note: 'Exemplo a confirmar com a equipe de produto.' },
    }
    expect(await warningsOf(edited, raw)).toEqual([
      expect.stringMatching(/^A calculadora e os números de ROI não batem: .*payback.*ROI/),
    ])
  })

  it('warns on the claim when its edit no longer matches the calculator', async () => {
    expect(
      await warningsOf(
        { ...savings, _id: 'drafts.claim-annual-savings', value: 'R$ 200 mil' },
        raw,
      ),
    ).toEqual([
      expect.stringMatching(
        /economizam R\$ 150 mil por ano, mas o número de marketing diz R\$ 200 mil/,
      ),
    ])
    // A claim the calculator does not use is never checked.
    const other = raw.find((doc) => doc._id === 'claim-accuracy')!
    expect(await warningsOf({ ...other, value: '99%' }, raw)).toEqual([])
  })
})

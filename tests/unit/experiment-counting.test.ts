import { describe, expect, it } from 'vitest'

import {
  addressBucket,
  addressHash,
  createCollector,
  DIMENSIONS,
  saoPauloDay,
  visitorHash,
  type BatchRow,
} from '@/lib/analytics/collect'
import { NO_VARIANT_KEY } from '@/lib/analytics/measures.mjs'
import { createSharedState } from '@/lib/analytics/shared-state'
import { cleanVariant } from '@/lib/attribution-fields'
import { assignVariant } from '@/lib/experiments/assign'
import type { ExperimentDefinition } from '@/lib/experiments/definition'
import { EXPERIMENTS_REFRESH_MS, experimentsMemo } from '@/lib/experiments/running'

// Counting by experiment variant (docs/experiments.md, "Counting"): the `variant` dimension is
// credited like a campaign (the page's variant, else the entry page's, which the beacon sends),
// and a beacon naming a variant that does not run counts nowhere, not even as a view.

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SITE = 'https://vigia.example'
const EXPERIMENTS: ExperimentDefinition[] = [
  {
    key: 'titulo-campanha',
    title: 'Título',
    pagePath: '/p/frotas',
    goal: 'leads',
    visibleFrom: null,
    visibleUntil: null,
    variants: [
      { key: 'controle', label: 'Padrão', weight: 1 },
      { key: 'fadiga', label: 'Fadiga', weight: 1 },
    ],
  },
]

function setup() {
  const shared = createSharedState(undefined)
  const written: BatchRow[] = []
  const collector = createCollector({
    site: SITE,
    saltFor: shared.saltFor,
    firstSeen: shared.firstSeen,
    reading: shared.reading,
    isKnownPath: (path) => ['/', '/p/frotas', '/calculadora'].includes(path),
    experiments: () => EXPERIMENTS,
    holdsShare: shared.holdsShare,
    write: async (_id, rows) => {
      written.push(...rows)
    },
  })
  /** The variant proxy.ts serves this address and browser today (the page's own chooseVariant). */
  const served = async (ip: string, userAgent = CHROME) => {
    const salt = await shared.saltFor(saoPauloDay(Date.now()))
    const visitor = visitorHash(salt, ip, userAgent, SITE)
    return `titulo-campanha/${assignVariant(visitor, 'titulo-campanha', EXPERIMENTS[0]!.variants)}`
  }
  /** An address (198.51.100.x) served `variant`, other than those in `taken`. */
  const addressServed = async (variant: string, taken: string[] = []) => {
    for (let x = 1; x < 255; x++) {
      const ip = `198.51.100.${x}`
      if (!taken.includes(ip) && (await served(ip)) === variant) return ip
    }
    throw new Error(`no address served ${variant}`)
  }
  /** visits, visitors and contact clickers per key of one dimension. */
  const figures = (dimension: string) => {
    const sums: Record<string, { visits: number; visitors: number; whatsapp: number }> = {}
    const seen: Record<string, Set<string>> = {}
    const clicked: Record<string, Set<string>> = {}
    for (const row of written) {
      if (row.dimension !== dimension) continue
      const sum = (sums[row.key] ??= { visits: 0, visitors: 0, whatsapp: 0 })
      sum.visits += row.visits
      for (const visitor of row.visitors) (seen[row.key] ??= new Set()).add(visitor)
      for (const visitor of row.contacts?.whatsapp ?? [])
        (clicked[row.key] ??= new Set()).add(visitor)
      sum.visitors = seen[row.key]?.size ?? 0
      sum.whatsapp = clicked[row.key]?.size ?? 0
    }
    return sums
  }
  return { collector, written, figures, served, addressServed, shared }
}

describe('the variant dimension', () => {
  it('counts views, visitors, contacts and reading under the variant the beacon names', async () => {
    const { collector, written, figures, addressServed } = setup()
    const visit = (ip: string, body: Record<string, unknown>) =>
      collector.record({ ip, userAgent: CHROME, body: { path: '/p/frotas', ...body } })
    // Each beacon names the variant its visitor is served (collect.ts recomputes it).
    const one = await addressServed('titulo-campanha/fadiga')
    const two = await addressServed('titulo-campanha/controle')
    const three = await addressServed('titulo-campanha/controle', [two])
    expect(await visit(one, { variant: 'titulo-campanha/fadiga', entry: true })).toBe('counted')
    expect(await visit(two, { variant: 'titulo-campanha/controle', entry: true })).toBe('counted')
    // The entry page's variant, credited to a later page of the visit (the beacon sends it).
    expect(await visit(one, { path: '/calculadora', variant: 'titulo-campanha/fadiga' })).toBe(
      'counted',
    )
    expect(await visit(three, { path: '/', entry: true })).toBe('counted')
    expect(
      await visit(one, {
        event: 'contact',
        channel: 'whatsapp',
        variant: 'titulo-campanha/fadiga',
      }),
    ).toBe('counted')
    expect(
      await visit(two, {
        event: 'read',
        seconds: 30,
        scroll: 80,
        first: true,
        variant: 'titulo-campanha/controle',
      }),
    ).toBe('counted')
    await collector.flush()

    expect(DIMENSIONS).toContain('variant')
    expect(figures('variant')).toEqual({
      'titulo-campanha/fadiga': { visits: 2, visitors: 1, whatsapp: 1 },
      'titulo-campanha/controle': { visits: 1, visitors: 1, whatsapp: 0 },
      [NO_VARIANT_KEY]: { visits: 1, visitors: 1, whatsapp: 0 },
    })
    const read = written.find(
      (row) => row.dimension === 'variant' && row.key === 'titulo-campanha/controle' && row.reads,
    )
    expect(read).toMatchObject({ reads: 1, readSeconds: 30, readScroll: 80 })
  })

  it('counts nowhere a beacon naming a variant that does not run, or a malformed one', async () => {
    const { collector, written } = setup()
    for (const variant of [
      'titulo-campanha/encerrada',
      'outro-experimento/controle',
      'Titulo/Controle',
      '../../etc',
      '',
      'a'.repeat(70) + '/' + 'b'.repeat(70),
    ])
      expect(
        await collector.record({
          ip: '198.51.100.9',
          userAgent: CHROME,
          body: { path: '/p/frotas', entry: true, variant },
        }),
      ).toBe('ignored')
    await collector.flush()
    expect(written).toEqual([])
    expect(collector.pending().views).toBe(0)
  })

  it('counts nowhere any variant when no experiment is known to run', async () => {
    const shared = createSharedState(undefined)
    const collector = createCollector({
      site: 'https://vigia.example',
      saltFor: shared.saltFor,
      firstSeen: shared.firstSeen,
      reading: shared.reading,
      isKnownPath: () => true,
      write: async () => {},
    })
    const body = { path: '/p/frotas', variant: 'titulo-campanha/controle' }
    expect(await collector.record({ ip: '198.51.100.1', userAgent: CHROME, body })).toBe('ignored')
  })
})

/** 60 browsers: one user agent each, as a client rotating it sends. */
const AGENTS = Array.from(
  { length: 60 },
  (_, i) =>
    `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${70 + i}.0.0.0 Safari/537.36`,
)
const other = (variant: string) =>
  variant.endsWith('/controle') ? 'titulo-campanha/fadiga' : 'titulo-campanha/controle'

describe('a variant counts as served, one share an address (issue 66)', () => {
  it('credits no arm with 60 beacons from rotating user agents, each naming the variant it was not served: their views count with no variant', async () => {
    const { collector, figures, served } = setup()
    const ip = '203.0.113.7'
    const arms = new Set<string>()
    for (const userAgent of AGENTS) {
      const mine = await served(ip, userAgent)
      arms.add(mine)
      for (const body of [
        { path: '/p/frotas', entry: true, variant: other(mine) },
        { path: '/p/frotas', event: 'contact', channel: 'whatsapp', variant: other(mine) },
      ] as const)
        expect(await collector.record({ ip, userAgent, body })).toBe('counted')
    }
    // Both arms were served among the 60: each beacon named the other one.
    expect(arms.size).toBe(2)
    await collector.flush()
    // The page keeps its 60 views; no arm has any.
    expect(figures('variant')).toEqual({
      [NO_VARIANT_KEY]: { visits: 60, visitors: 60, whatsapp: 60 },
    })
  })

  it('gives 60 rotating user agents naming their own variant one visitor in one arm; the others count with no variant', async () => {
    const { collector, figures, served } = setup()
    const ip = '203.0.113.8'
    for (const userAgent of AGENTS) {
      const variant = await served(ip, userAgent)
      expect(await collector.record({ ip, userAgent, body: { path: '/p/frotas', variant } })).toBe(
        'counted',
      )
      await collector.record({
        ip,
        userAgent,
        body: { path: '/p/frotas', event: 'contact', channel: 'whatsapp', variant },
      })
    }
    // The first took the address's share of the experiment; the 59 others have no arm.
    await collector.flush()
    expect(figures('variant')).toEqual({
      [await served(ip, AGENTS[0])]: { visits: 1, visitors: 1, whatsapp: 1 },
      [NO_VARIANT_KEY]: { visits: 59, visitors: 59, whatsapp: 59 },
    })
  })

  it("gives 60 rotating user agents from one /64 one visitor's reading seconds a page", async () => {
    const { collector, written } = setup()
    for (const [index, userAgent] of AGENTS.entries()) {
      const ip = `2001:db8:5:6:${index.toString(16)}::1`
      const body = { path: '/calculadora' }
      expect(await collector.record({ ip, userAgent, body })).toBe('counted')
      await collector.record({
        ip,
        userAgent,
        body: { ...body, event: 'read', seconds: 1800, scroll: 100, first: true },
      })
    }
    await collector.flush()
    const page = written.filter((row) => row.dimension === 'page' && row.key === '/calculadora')
    const seconds = page.reduce((sum, row) => sum + (row.readSeconds ?? 0), 0)
    expect(seconds).toBe(1800)
    // Another /64 gets its own.
    await collector.record({ ip: '2001:db8:5:7::1', userAgent: CHROME, body: { path: '/' } })
    expect(
      await collector.record({
        ip: '2001:db8:5:7::1',
        userAgent: CHROME,
        body: { path: '/', event: 'read', seconds: 1800, first: true },
      }),
    ).toBe('counted')
  })

  it('puts the addresses of one IPv6 /64 in one bucket, and IPv4 per address', () => {
    const salt = Buffer.alloc(32, 7)
    const hash = (ip: string) => addressHash(salt, ip, SITE)
    expect(hash('2001:db8:1:2::1')).toBe(hash('2001:0db8:0001:0002:ffff:eeee:dddd:cccc'))
    expect(hash('2001:db8:1:2::1')).not.toBe(hash('2001:db8:1:3::1'))
    expect(hash('::ffff:203.0.113.7')).toBe(hash('203.0.113.7'))
    expect(hash('203.0.113.7')).not.toBe(hash('203.0.113.8'))
    expect(hash('203.0.113.7')).toMatch(/^[0-9a-f]{32}$/)
    // The stored 0-255 bucket is its first byte.
    expect(addressBucket(salt, '203.0.113.7', SITE)).toBe(
      parseInt(hash('203.0.113.7').slice(0, 2), 16),
    )
  })
})

describe('cleanVariant', () => {
  it('keeps <experiment>/<variant> slugs only', () => {
    expect(cleanVariant('titulo-campanha/fadiga')).toBe('titulo-campanha/fadiga')
    expect(cleanVariant(' titulo/controle ')).toBe('titulo/controle')
    for (const bad of ['titulo', 'titulo/', '/controle', 'a/b/c', 'a_b/c', 'A/b', 'a--b/c', 7])
      expect(cleanVariant(bad)).toBeUndefined()
  })
})

describe('the running experiments memo', () => {
  const experiment = (visibleUntil: string | null): ExperimentDefinition => ({
    key: 'titulo-campanha',
    title: 'Título',
    pagePath: '/p/frotas',
    goal: 'leads',
    visibleFrom: null,
    visibleUntil,
    variants: [
      { key: 'controle', label: 'Padrão', weight: 1 },
      { key: 'fadiga', label: 'Fadiga', weight: 1 },
    ],
  })

  it('answers from the last read, reads again once old, and keeps the list when a read fails', async () => {
    let time = Date.parse('2026-11-28T12:00:00Z')
    const reads: Array<() => Promise<ExperimentDefinition[]>> = [
      async () => [experiment(null)],
      async () => {
        throw new Error('Content Lake unreachable')
      },
      async () => [experiment('2026-11-28T12:00:30Z')],
    ]
    let calls = 0
    const memo = experimentsMemo(
      () => reads[calls++]!(),
      () => time,
    )
    expect(await memo.isRunning('titulo-campanha/fadiga')).toBe(true)
    expect(await memo.isRunning('titulo-campanha/outra')).toBe(false)
    expect(await memo.isRunning('outro/controle')).toBe(false)
    expect(calls).toBe(1)
    time += EXPERIMENTS_REFRESH_MS
    // The refresh runs in the background: the old list answers meanwhile, and after it failed.
    expect(await memo.isRunning('titulo-campanha/fadiga')).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls).toBe(2)
    expect(await memo.isRunning('titulo-campanha/fadiga')).toBe(true)
    time += EXPERIMENTS_REFRESH_MS
    await memo.definitions()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls).toBe(3)
    // It ended at 12:00:30, before now.
    expect(await memo.isRunning('titulo-campanha/fadiga')).toBe(false)
  })
})

describe("docs/experiments.md's 'why days'", () => {
  it('a variant doubling 2% reaches a 95% chance at about 400 visitors per arm, not before', async () => {
    const { verdict } = await import('@/lib/experiments/verdict')
    const chance = (visitors: number) => {
      const judged = verdict(
        { visitors, conversions: visitors * 0.02 },
        { visitors, conversions: visitors * 0.04 },
      )
      return judged.kind === 'ready' ? judged.chanceToBeatControl : 0
    }
    expect(chance(300)).toBeLessThan(0.93)
    expect(chance(400)).toBeGreaterThan(0.94)
    expect(chance(400)).toBeLessThan(0.96)
    expect(chance(500)).toBeGreaterThan(0.95)
  })
})

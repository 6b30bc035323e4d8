import { describe, expect, it } from 'vitest'

import { createCollector, DIMENSIONS, type BatchRow } from '@/lib/analytics/collect'
import { NO_VARIANT_KEY } from '@/lib/analytics/measures.mjs'
import { createSharedState } from '@/lib/analytics/shared-state'
import { cleanVariant } from '@/lib/attribution-fields'
import type { ExperimentDefinition } from '@/lib/experiments/definition'
import { EXPERIMENTS_REFRESH_MS, experimentsMemo } from '@/lib/experiments/running'

// Counting by experiment variant (docs/experiments.md, "Counting"): the `variant` dimension is
// credited like a campaign (the page's variant, else the entry page's, which the beacon sends),
// and a beacon naming a variant that does not run counts nowhere, not even as a view.

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const RUNNING = new Set(['titulo-campanha/controle', 'titulo-campanha/fadiga'])

function setup() {
  const shared = createSharedState(undefined)
  const written: BatchRow[] = []
  const collector = createCollector({
    site: 'https://vigia.example',
    saltFor: shared.saltFor,
    firstSeen: shared.firstSeen,
    reading: shared.reading,
    isKnownPath: (path) => ['/', '/p/frotas', '/calculadora'].includes(path),
    isRunningVariant: (variant) => RUNNING.has(variant),
    write: async (_id, rows) => {
      written.push(...rows)
    },
  })
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
  return { collector, written, figures }
}

describe('the variant dimension', () => {
  it('counts views, visitors, contacts and reading under the variant the beacon names', async () => {
    const { collector, written, figures } = setup()
    const visit = (ip: string, body: Record<string, unknown>) =>
      collector.record({ ip, userAgent: CHROME, body: { path: '/p/frotas', ...body } })
    expect(await visit('198.51.100.1', { variant: 'titulo-campanha/fadiga', entry: true })).toBe(
      'counted',
    )
    expect(await visit('198.51.100.2', { variant: 'titulo-campanha/controle', entry: true })).toBe(
      'counted',
    )
    // The entry page's variant, credited to a later page of the visit (the beacon sends it).
    expect(
      await visit('198.51.100.1', { path: '/calculadora', variant: 'titulo-campanha/fadiga' }),
    ).toBe('counted')
    expect(await visit('198.51.100.3', { path: '/', entry: true })).toBe('counted')
    expect(
      await visit('198.51.100.1', {
        event: 'contact',
        channel: 'whatsapp',
        variant: 'titulo-campanha/fadiga',
      }),
    ).toBe('counted')
    expect(
      await visit('198.51.100.2', {
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

import { beforeEach, describe, expect, it, vi } from 'vitest'

import { createCollector, type BatchRow, type VitalRow } from '@/lib/analytics/collect'
import { createSharedState } from '@/lib/analytics/shared-state'
import {
  BUCKETS_PER_DOUBLING,
  bucketUpper,
  lastBucket,
  p75,
  VITAL_SPECS,
  vitalBucket,
  vitalRating,
} from '@/lib/analytics/vitals.mjs'

// The speed visitors' browsers measured (docs/analytics.md, "Speed as visitors live it"): the
// buckets and p75 of lib/analytics/vitals.mjs, and the chain a beacon goes through (the route's
// parsing, the collector's bounds and the reading ledger's one share per view) fed absurd figures.

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

describe('the buckets of a web vital', () => {
  it('refuses what no browser produces and caps what is too large', () => {
    for (const name of ['lcp', 'inp', 'cls'] as const) {
      for (const absurd of [-1, -0.001, Number.NaN, Infinity, -Infinity, '1200', null, {}, true])
        expect(vitalBucket(name, absurd), `${name} ${String(absurd)}`).toBeUndefined()
      expect(vitalBucket(name, 1e12)).toBe(lastBucket(name))
      expect(vitalBucket(name, 0)).toBe(0)
    }
    expect(bucketUpper('lcp', lastBucket('lcp'))).toBe(60_000)
    expect(bucketUpper('inp', lastBucket('inp'))).toBe(60_000)
    expect(vitalBucket('cls', 1000)).toBe(lastBucket('cls'))
    expect(bucketUpper('cls', lastBucket('cls'))).toBe(10)
    // Every bucket fits the table's smallint check (0 to 255).
    for (const { name } of VITAL_SPECS) expect(lastBucket(name)).toBeLessThanOrEqual(255)
  })

  it('puts each figure in a bucket whose upper bound is at most 4.4% above it', () => {
    const spread = 2 ** (1 / BUCKETS_PER_DOUBLING)
    for (const { name, min, max } of VITAL_SPECS)
      for (let value = min * 1.01; value < max; value *= 1.013) {
        const bucket = vitalBucket(name, value)!
        const upper = min * 2 ** (bucket / BUCKETS_PER_DOUBLING)
        expect(upper).toBeGreaterThanOrEqual(value * (1 - 1e-9))
        expect(upper).toBeLessThanOrEqual(value * spread * (1 + 1e-9))
      }
    // A value on a bound stays in the bucket it closes.
    expect(vitalBucket('lcp', 2)).toBe(BUCKETS_PER_DOUBLING)
  })

  it('reads the 75th percentile from a histogram as the upper bound of the ceil(0.75 n)-th sample', () => {
    const histogram = (values: number[]) => {
      const counts = new Map<number, number>()
      for (const value of values) {
        const bucket = vitalBucket('lcp', value)!
        counts.set(bucket, (counts.get(bucket) ?? 0) + 1)
      }
      return counts
    }
    expect(p75('lcp', [])).toBeNull()
    expect(p75('lcp', [[12, 0]])).toBeNull()
    // Four samples: the third (1800 ms) is the p75, within its bucket's 4.4%.
    const four = p75('lcp', histogram([900, 3500, 1200, 1800]))!
    expect(four).toBeGreaterThanOrEqual(1800)
    expect(four).toBeLessThanOrEqual(1800 * 1.045)
    // 100 samples 1..100 ms ×100: the 75th is 7,500 ms.
    const hundred = p75('lcp', histogram(Array.from({ length: 100 }, (_, i) => (i + 1) * 100)))!
    expect(hundred).toBeGreaterThanOrEqual(7500)
    expect(hundred).toBeLessThanOrEqual(7500 * 1.045)
    // CLS rounds to 2 decimals; no shift at all is 0.
    expect(p75('cls', [[vitalBucket('cls', 0)!, 5]])).toBe(0)
    expect(p75('cls', [[vitalBucket('cls', 0.12)!, 3]])).toBeCloseTo(0.12, 2)
  })

  it("rates figures by Google's thresholds, in Portuguese", () => {
    expect(vitalRating('lcp', 2500)).toBe('bom')
    expect(vitalRating('lcp', 2501)).toBe('precisa melhorar')
    expect(vitalRating('lcp', 4000)).toBe('precisa melhorar')
    expect(vitalRating('lcp', 4001)).toBe('ruim')
    expect(vitalRating('inp', 200)).toBe('bom')
    expect(vitalRating('inp', 500)).toBe('precisa melhorar')
    expect(vitalRating('inp', 501)).toBe('ruim')
    expect(vitalRating('cls', 0.1)).toBe('bom')
    expect(vitalRating('cls', 0.25)).toBe('precisa melhorar')
    expect(vitalRating('cls', 0.26)).toBe('ruim')
    expect(vitalRating('cls', null)).toBeNull()
  })
})

// The route as Next calls it, its count handed to a real collector on memory state.
const collectorRef = vi.hoisted(() => ({
  record: undefined as undefined | ((v: never) => unknown),
}))
const afterTasks = vi.hoisted(() => [] as Array<() => unknown>)
vi.mock('@/lib/analytics', () => ({
  recordView: (view: never) => collectorRef.record!(view),
}))
vi.mock('next/server', async (original) => ({
  ...(await original<typeof import('next/server')>()),
  after: (task: () => unknown) => void afterTasks.push(task),
}))
const { POST } = await import('@/app/api/analytics/view/route')

describe('absurd web vitals sent to POST /api/analytics/view', () => {
  let written: Array<{ rows: BatchRow[]; vitals?: VitalRow[] }>
  let collector: ReturnType<typeof createCollector>

  beforeEach(() => {
    afterTasks.length = 0
    written = []
    const shared = createSharedState(undefined)
    collector = createCollector({
      site: 'https://vigia.example',
      saltFor: shared.saltFor,
      firstSeen: shared.firstSeen,
      reading: shared.reading,
      isKnownPath: (path) => ['/', '/calculadora'].includes(path),
      write: async (_id, rows, vitals) => {
        written.push({ rows, vitals })
      },
    })
    collectorRef.record = collector.record as never
  })

  /** One beacon from `ip` (a user agent of a real browser), counted as after() would. */
  async function beacon(ip: string, body: Record<string, unknown>) {
    const response = await POST(
      new Request('http://127.0.0.1/api/analytics/view', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': CHROME,
          'x-forwarded-for': ip,
        },
        body: JSON.stringify(body),
      }),
    )
    expect(response.status).toBe(204)
    for (const task of afterTasks.splice(0)) await task()
  }

  /** Every sample written: `metric bucket×count` per page. */
  async function samples() {
    await collector.flush()
    return written
      .flatMap((batch) => batch.vitals ?? [])
      .map((row) => `${row.page} ${row.metric} ${row.bucket}×${row.count}`)
      .sort()
  }

  it('refuses negative, non-number and non-finite figures, caps huge ones, and keeps sane ones', async () => {
    await beacon('198.51.100.1', { path: '/' })
    await beacon('198.51.100.1', {
      path: '/',
      event: 'read',
      seconds: 3,
      scroll: 10,
      first: true,
      lcp: 1e12,
      inp: -40,
      cls: 1000,
    })
    await beacon('198.51.100.2', { path: '/calculadora' })
    await beacon('198.51.100.2', {
      path: '/calculadora',
      event: 'read',
      seconds: 3,
      scroll: 10,
      first: true,
      lcp: '1800',
      inp: 'NaN',
      cls: 0.05,
    })
    expect(await samples()).toEqual(
      [
        `/ lcp ${lastBucket('lcp')}×1`,
        `/ cls ${lastBucket('cls')}×1`,
        `/calculadora cls ${vitalBucket('cls', 0.05)}×1`,
      ].sort(),
    )
  })

  it('takes one report per counted view: none on a later report, a second first report, or a read with no view', async () => {
    const vitals = { lcp: 1200, inp: 80, cls: 0.01 }
    // No counted view of this page: nothing.
    await beacon('198.51.100.3', { path: '/', event: 'read', first: true, seconds: 1, ...vitals })
    await beacon('198.51.100.3', { path: '/' })
    // A later report of the view (not `first`): nothing.
    await beacon('198.51.100.3', { path: '/', event: 'read', first: false, seconds: 2, ...vitals })
    await beacon('198.51.100.3', { path: '/', event: 'read', first: true, seconds: 1, ...vitals })
    // The same view reported as first again, twice: nothing more.
    await beacon('198.51.100.3', { path: '/', event: 'read', first: true, seconds: 1, ...vitals })
    await beacon('198.51.100.3', { path: '/', event: 'read', first: true, seconds: 1, ...vitals })
    expect(await samples()).toEqual(
      [
        `/ lcp ${vitalBucket('lcp', 1200)}×1`,
        `/ inp ${vitalBucket('inp', 80)}×1`,
        `/ cls ${vitalBucket('cls', 0.01)}×1`,
      ].sort(),
    )
  })

  it('gives one address no more samples than its counted views, whatever user agents it rotates', async () => {
    await beacon('198.51.100.4', { path: '/' })
    for (let i = 0; i < 5; i++) {
      // Another user agent each time, from the same address, with no counted view of its own.
      const response = await POST(
        new Request('http://127.0.0.1/api/analytics/view', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': `${CHROME} rotation/${i}`,
            'x-forwarded-for': '198.51.100.4',
          },
          body: JSON.stringify({ path: '/', event: 'read', first: true, seconds: 1, lcp: 900 }),
        }),
      )
      expect(response.status).toBe(204)
      for (const task of afterTasks.splice(0)) await task()
    }
    await beacon('198.51.100.4', { path: '/', event: 'read', first: true, seconds: 1, lcp: 900 })
    await beacon('198.51.100.4', { path: '/', event: 'read', first: true, seconds: 1, lcp: 900 })
    expect(await samples()).toEqual([`/ lcp ${vitalBucket('lcp', 900)}×1`])
  })
})

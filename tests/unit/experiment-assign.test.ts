import { describe, expect, it } from 'vitest'

import { visitorHash } from '@/lib/analytics/collect'
import { assignVariant } from '@/lib/experiments/assign'
import { CONTROL } from '@/lib/experiments/ids'

// Assignment from the counting's own visitor hash: split by the weights, stable for a visitor all
// day, independent across experiments, and new with the next day's salt.

const SITE = 'https://vigia.example'
// Fixed salts, so the shares below are the same every run (a random one would fail 1 run in ~300).
const day = Buffer.alloc(32, 1)
const visitors = Array.from({ length: 1_000 }, (_, i) =>
  visitorHash(day, `198.51.${i >> 8}.${i & 255}`, 'Mozilla/5.0 (Linux; Android 14)', SITE),
)
const share = (assigned: string[], key: string) =>
  assigned.filter((value) => value === key).length / assigned.length

describe('assigning a variant without a cookie', () => {
  it('holds a 50/50 split to between 45% and 55% of 1,000 visitors', () => {
    const variants = [
      { key: CONTROL, weight: 50 },
      { key: 'b', weight: 50 },
    ]
    const assigned = visitors.map((visitor) => assignVariant(visitor, 'hero-home', variants))
    expect(share(assigned, CONTROL)).toBeGreaterThanOrEqual(0.45)
    expect(share(assigned, CONTROL)).toBeLessThanOrEqual(0.55)
  })

  it('holds uneven weights among three variants', () => {
    const variants = [
      { key: CONTROL, weight: 2 },
      { key: 'b', weight: 1 },
      { key: 'c', weight: 1 },
    ]
    const assigned = visitors.map((visitor) => assignVariant(visitor, 'hero-home', variants))
    expect(share(assigned, CONTROL)).toBeGreaterThan(0.45)
    expect(share(assigned, CONTROL)).toBeLessThan(0.55)
    for (const key of ['b', 'c']) {
      expect(share(assigned, key)).toBeGreaterThan(0.2)
      expect(share(assigned, key)).toBeLessThan(0.3)
    }
  })

  it('gives a visitor the same variant all day, and two experiments split independently', () => {
    const variants = [
      { key: CONTROL, weight: 1 },
      { key: 'b', weight: 1 },
    ]
    const first = visitors.map((visitor) => assignVariant(visitor, 'hero-home', variants))
    expect(visitors.map((visitor) => assignVariant(visitor, 'hero-home', variants))).toEqual(first)
    const other = visitors.map((visitor) => assignVariant(visitor, 'cta-onibus', variants))
    const agree = first.filter((value, i) => value === other[i]).length / first.length
    expect(agree).toBeGreaterThan(0.44)
    expect(agree).toBeLessThan(0.56)
  })

  it('starts afresh with the next day’s salt', () => {
    const variants = [
      { key: CONTROL, weight: 1 },
      { key: 'b', weight: 1 },
    ]
    const nextDay = Buffer.alloc(32, 2)
    const today = visitors.map((visitor) => assignVariant(visitor, 'hero-home', variants))
    const tomorrow = visitors.map((_, i) =>
      assignVariant(
        visitorHash(
          nextDay,
          `198.51.${i >> 8}.${i & 255}`,
          'Mozilla/5.0 (Linux; Android 14)',
          SITE,
        ),
        'hero-home',
        variants,
      ),
    )
    const same = today.filter((value, i) => value === tomorrow[i]).length / today.length
    expect(same).toBeLessThan(0.56)
  })

  it('serves the default when no variant has weight', () => {
    expect(assignVariant(visitors[0]!, 'x', [])).toBe(CONTROL)
    expect(assignVariant(visitors[0]!, 'x', [{ key: 'b', weight: 0 }])).toBe(CONTROL)
  })
})

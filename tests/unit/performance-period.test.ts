// The Desempenho tool's periods (São Paulo days), its comparison with the period before and its
// pt-BR formats, as the pure functions the tool and the page tab use.
import { describe, expect, it } from 'vitest'

import {
  addDays,
  compare,
  countChange,
  customPeriod,
  dailySeries,
  daysInclusive,
  describePeriod,
  formatChange,
  formatCount,
  formatRate,
  isIsoDate,
  MAX_PERIOD_DAYS,
  presetPeriod,
  previousPeriod,
  rateChange,
  saoPauloToday,
  totals,
  changeDirection,
} from '@/sanity/performance/period'

const row = (key: string, visits: number, visitors: number, leads: number, downloads = 0) => ({
  key,
  visits,
  visitors,
  leads,
  conversion: visitors ? leads / visitors : 0,
  downloads,
  whatsapp: 0,
  phone: 0,
  email: 0,
  engagedSeconds: null,
  scrollDepth: null,
})

describe('São Paulo days', () => {
  it('is still yesterday in São Paulo until 03:00 UTC', () => {
    expect(saoPauloToday(new Date('2026-11-27T02:59:59Z'))).toBe('2026-11-26')
    expect(saoPauloToday(new Date('2026-11-27T03:00:00Z'))).toBe('2026-11-27')
    // New Year's Eve in São Paulo is already 1 January in UTC.
    expect(saoPauloToday(new Date('2027-01-01T01:30:00Z'))).toBe('2026-12-31')
  })

  it('adds calendar days across months, years and leap days', () => {
    expect(addDays('2026-11-26', -29)).toBe('2026-10-28')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29')
    expect(daysInclusive('2026-11-01', '2026-11-30')).toBe(30)
    expect(daysInclusive('2026-11-26', '2026-11-26')).toBe(1)
  })

  it('knows a real date from a look-alike', () => {
    expect(isIsoDate('2026-02-28')).toBe(true)
    expect(isIsoDate('2026-02-29')).toBe(false)
    expect(isIsoDate('2026-2-28')).toBe(false)
    expect(isIsoDate('')).toBe(false)
  })
})

describe('periods', () => {
  it('the last 7, 30 or 90 days end today, today included', () => {
    expect(presetPeriod(7, '2026-11-26')).toEqual({ from: '2026-11-20', to: '2026-11-26', days: 7 })
    expect(presetPeriod(30, '2026-11-26')).toEqual({
      from: '2026-10-28',
      to: '2026-11-26',
      days: 30,
    })
    expect(presetPeriod(90, '2026-11-26')).toEqual({
      from: '2026-08-29',
      to: '2026-11-26',
      days: 90,
    })
  })

  it('compares with the period of the same length that ends the day before', () => {
    expect(previousPeriod(presetPeriod(7, '2026-11-26'))).toEqual({
      from: '2026-11-13',
      to: '2026-11-19',
      days: 7,
    })
    expect(previousPeriod({ from: '2026-03-01', to: '2026-03-31', days: 31 })).toEqual({
      from: '2026-01-29',
      to: '2026-02-28',
      days: 31,
    })
  })

  it('accepts a custom period only when it is whole, in order, past and at most a year', () => {
    expect(customPeriod('2026-11-01', '2026-11-10', '2026-11-26')).toEqual({
      period: { from: '2026-11-01', to: '2026-11-10', days: 10 },
    })
    expect(customPeriod('2026-11-26', '2026-11-26', '2026-11-26')).toEqual({
      period: { from: '2026-11-26', to: '2026-11-26', days: 1 },
    })
    expect(customPeriod('', '2026-11-10', '2026-11-26')).toEqual({
      problem: 'Preencha as duas datas, no formato dia/mês/ano.',
    })
    expect(customPeriod('2026-11-10', '2026-11-01', '2026-11-26')).toEqual({
      problem: 'A data inicial precisa ser igual ou anterior à data final.',
    })
    expect(customPeriod('2026-11-20', '2026-11-27', '2026-11-26')).toEqual({
      problem: 'A data final não pode estar no futuro.',
    })
    expect(
      customPeriod(addDays('2026-11-26', -MAX_PERIOD_DAYS), '2026-11-26', '2026-11-26'),
    ).toEqual({ problem: 'Escolha um período de no máximo 366 dias.' })
  })

  it('describes a period as Brazilians write dates', () => {
    expect(describePeriod({ from: '2026-10-28', to: '2026-11-26', days: 30 })).toBe(
      '28/10/2026 a 26/11/2026 (30 dias)',
    )
    expect(describePeriod({ from: '2026-11-26', to: '2026-11-26', days: 1 })).toBe(
      '26/11/2026 a 26/11/2026 (1 dia)',
    )
  })
})

describe('the chart series and the totals', () => {
  it('draws every day of the period, zero where no row came, nothing outside it', () => {
    const period = { from: '2026-11-24', to: '2026-11-26', days: 3 }
    expect(
      dailySeries(period, [
        row('2026-11-26', 9, 7, 1),
        row('2026-11-24', 3, 2, 0),
        row('2026-11-20', 5, 5, 5),
      ]),
    ).toEqual([
      { date: '2026-11-24', visits: 3, visitors: 2, leads: 0 },
      { date: '2026-11-25', visits: 0, visitors: 0, leads: 0 },
      { date: '2026-11-26', visits: 9, visitors: 7, leads: 1 },
    ])
  })

  it('adds up the days, conversion = leads ÷ visitors (downloads beside, not in it), none without visitors', () => {
    expect(totals([row('2026-11-25', 120, 80, 2, 4), row('2026-11-26', 60, 40, 1, 1)])).toEqual({
      visits: 180,
      visitors: 120,
      leads: 3,
      downloads: 5,
      conversion: 0.025,
    })
    expect(totals([]).conversion).toBeNull()
    expect(totals([row('2026-11-26', 0, 0, 1)]).conversion).toBeNull()
  })
})

describe('comparison with the previous period', () => {
  it('gives counts a relative change and the rate a change in points', () => {
    const comparison = compare(
      { visits: 180, visitors: 120, leads: 3, downloads: 6, conversion: 0.025 },
      { visits: 200, visitors: 100, leads: 2, downloads: 8, conversion: 0.02 },
    )
    expect(formatChange(comparison.changes.visits)).toBe('-10%')
    expect(formatChange(comparison.changes.visitors)).toBe('+20%')
    expect(formatChange(comparison.changes.leads)).toBe('+50%')
    expect(formatChange(comparison.changes.downloads)).toBe('-25%')
    expect(formatChange(comparison.changes.conversion)).toBe('+0,5 p.p.')
    expect(changeDirection(comparison.changes.visits)).toBe('down')
    expect(changeDirection(comparison.changes.conversion)).toBe('up')
  })

  it('has no base when the previous period had nothing', () => {
    expect(countChange(5, 0)).toEqual({ kind: 'none' })
    expect(formatChange(countChange(5, 0))).toBe('—')
    expect(formatChange(countChange(0, 0))).toBe('0%')
    expect(changeDirection(countChange(0, 0))).toBe('flat')
    expect(rateChange(0.02, null)).toEqual({ kind: 'none' })
  })
})

describe('pt-BR formats', () => {
  it('writes counts and rates as Brazilians read them', () => {
    expect(formatCount(12345)).toBe('12.345')
    expect(formatRate(0.025)).toBe('2,5%')
    expect(formatRate(0.1)).toBe('10%')
    expect(formatRate(1 / 3)).toBe('33,3%')
    expect(formatRate(null)).toBe('—')
  })
})

import { describe, expect, it } from 'vitest'

import {
  BOUNDARY_TAG_PREFIX,
  boundaryTag,
  isPastBoundary,
} from '@/lib/cache/visibility-boundary.mjs'
import {
  describeVisibility,
  formatSiteTime,
  isVisible,
  nextBoundary,
  secondsUntil,
  visibilityState,
  windowProblem,
} from '@/lib/content/visibility'
import { campaignPageType } from '@/sanity/schema-types/campaign-page'

// A trade fair from 1 Dec 2026 09:00 to 3 Dec 2026 18:00, Brasília time (UTC-3, no daylight
// saving since 2019): 12:00 and 21:00 UTC.
const FAIR = { visibleFrom: '2026-12-01T12:00:00.000Z', visibleUntil: '2026-12-03T21:00:00.000Z' }
const START = Date.parse(FAIR.visibleFrom)
const END = Date.parse(FAIR.visibleUntil)

describe('visibility window', () => {
  it('is scheduled before the start, live from the start, ended from the end', () => {
    expect(visibilityState(FAIR, START - 1)).toBe('scheduled')
    expect(visibilityState(FAIR, START)).toBe('live')
    expect(visibilityState(FAIR, END - 1)).toBe('live')
    expect(visibilityState(FAIR, END)).toBe('ended')
    expect(isVisible(FAIR, START)).toBe(true)
    expect(isVisible(FAIR, END)).toBe(false)
  })

  it('with no start is live until its end, with no end stays live, with neither always live', () => {
    expect(visibilityState({ visibleUntil: FAIR.visibleUntil }, 0)).toBe('live')
    expect(visibilityState({ visibleUntil: FAIR.visibleUntil }, END)).toBe('ended')
    expect(visibilityState({ visibleFrom: FAIR.visibleFrom }, START + 1e12)).toBe('live')
    expect(visibilityState({ visibleFrom: null, visibleUntil: null })).toBe('live')
    expect(visibilityState({})).toBe('live')
  })

  it('reads instants with any offset: 09:00 in São Paulo is 12:00 UTC', () => {
    const sameStart = { visibleFrom: '2026-12-01T09:00:00-03:00' }
    expect(visibilityState(sameStart, START - 1)).toBe('scheduled')
    expect(visibilityState(sameStart, START)).toBe('live')
  })

  it('shows times in São Paulo whatever the time zone of the machine', () => {
    expect(formatSiteTime(START)).toBe('01/12/2026, 09:00')
    expect(formatSiteTime(END)).toBe('03/12/2026, 18:00')
    expect(describeVisibility(FAIR, START - 1)).toBe(
      'Agendada · entra no ar 01/12/2026, 09:00 (horário de Brasília)',
    )
    expect(describeVisibility(FAIR, START)).toBe(
      'No ar · sai do ar 03/12/2026, 18:00 (horário de Brasília)',
    )
    expect(describeVisibility(FAIR, END)).toBe(
      'Encerrada · saiu do ar 03/12/2026, 18:00 (horário de Brasília)',
    )
    expect(describeVisibility({}, 0)).toBe('No ar')
    // Articles (o artigo) get the masculine labels.
    expect(describeVisibility(FAIR, START - 1, 'm')).toMatch(/^Agendado · entra no ar/)
    expect(describeVisibility(FAIR, START, 'm')).toMatch(/^No ar · sai do ar/)
    expect(describeVisibility(FAIR, END, 'm')).toMatch(/^Encerrado · saiu do ar/)
  })

  it('refuses an end not after the start, and a window like that is never live', () => {
    expect(windowProblem(FAIR)).toBeUndefined()
    expect(windowProblem({ visibleFrom: FAIR.visibleFrom })).toBeUndefined()
    expect(windowProblem({ visibleUntil: FAIR.visibleUntil })).toBeUndefined()
    const reversed = { visibleFrom: FAIR.visibleUntil, visibleUntil: FAIR.visibleFrom }
    expect(windowProblem(reversed)).toMatch(/fim precisa ser depois do início/)
    expect(
      windowProblem({ visibleFrom: FAIR.visibleFrom, visibleUntil: FAIR.visibleFrom }),
    ).toMatch(/fim precisa ser depois/)
    for (const now of [START - 1, START, (START + END) / 2, END, END + 1])
      expect(isVisible(reversed, now), String(now)).toBe(false)
  })

  it('ignores a value that is not a date rather than hiding the page for ever', () => {
    expect(visibilityState({ visibleFrom: 'amanhã' }, START)).toBe('live')
  })
})

describe('next boundary', () => {
  it('is the first start or end ahead, across every window the answer depends on', () => {
    const bar = { visibleFrom: null, visibleUntil: '2026-12-02T03:00:00.000Z' }
    expect(nextBoundary([FAIR, bar], START - 1000)).toBe(START)
    expect(nextBoundary([FAIR, bar], START)).toBe(Date.parse(bar.visibleUntil))
    expect(nextBoundary([FAIR, bar, null, undefined], Date.parse(bar.visibleUntil))).toBe(END)
    expect(nextBoundary([FAIR, bar], END)).toBeUndefined()
    expect(nextBoundary([], 0)).toBeUndefined()
  })

  it('gives the cache lifetime in whole seconds, at least 1, at most the hourly re-check', () => {
    expect(secondsUntil(START, START - 20_000, 3600)).toBe(20)
    expect(secondsUntil(START, START - 19_001, 3600)).toBe(20)
    expect(secondsUntil(START, START - 19_000, 3600)).toBe(19)
    expect(secondsUntil(START, START - 10, 3600)).toBe(1)
    expect(secondsUntil(START, START + 5000, 3600)).toBe(1)
    expect(secondsUntil(START, START - 86_400_000, 3600)).toBe(3600)
  })
})

describe("the cache handler's boundary tag", () => {
  it('expires a page at its boundary, not before, and leaves other pages alone', () => {
    const tag = boundaryTag(START)
    expect(tag).toBe(`${BOUNDARY_TAG_PREFIX}${START}`)
    const header = `_N_T_/p/feira,sanity:campaignPage,${tag}`
    expect(isPastBoundary(header, START - 1)).toBe(false)
    expect(isPastBoundary(header, START)).toBe(true)
    expect(isPastBoundary('_N_T_/,sanity:landingPage', END)).toBe(false)
    expect(isPastBoundary(undefined, END)).toBe(false)
  })

  it('expires a page at its boundary to the millisecond, never a second late (a stale 404 served past a start got the not-found head)', () => {
    expect(isPastBoundary(boundaryTag(START + 400), START + 399)).toBe(false)
    expect(isPastBoundary(boundaryTag(START + 400), START + 400)).toBe(true)
  })
})

describe('the Studio list', () => {
  const prepare = campaignPageType.preview!.prepare! as (value: Record<string, unknown>) => {
    title?: string
    subtitle?: string
  }

  it('shows each page with a window as scheduled, live or ended, and the others as before', () => {
    const base = { title: 'Feira', slug: 'feira', noindex: false }
    expect(prepare({ ...base, visibleFrom: '2999-01-01T12:00:00Z' }).subtitle).toBe(
      'Agendada · entra no ar 01/01/2999, 09:00 (horário de Brasília) · /p/feira',
    )
    expect(prepare({ ...base, visibleUntil: '2999-01-01T12:00:00Z' }).subtitle).toBe(
      'No ar · sai do ar 01/01/2999, 09:00 (horário de Brasília) · /p/feira',
    )
    expect(prepare({ ...base, visibleUntil: '2020-01-01T12:00:00Z' }).subtitle).toMatch(
      /^Encerrada · saiu do ar 01\/01\/2020, 09:00/,
    )
    expect(prepare(base).subtitle).toBe('/p/feira')
  })
})

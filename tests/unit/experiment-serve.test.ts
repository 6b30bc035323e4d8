import { describe, expect, it } from 'vitest'

import { assignVariant } from '@/lib/experiments/assign'
import { CONTROL } from '@/lib/experiments/ids'
import type { ExperimentDefinition } from '@/lib/experiments/definition'
import { chooseVariant, VARIANT_HEADER } from '@/lib/experiments/serve'

// chooseVariant is the one decision proxy.ts makes for a page and for the front's question
// (deploy/nginx.conf keys its cache on the answer): a variant the front names wins, anything else
// it names is the default (never an assignment, or the copy it stores would depend on who filled
// it), bots, draft mode and prefetches get the default, and a visitor its hash's.

const experiment: ExperimentDefinition = {
  key: 'titulo',
  title: 'Título',
  pagePath: '/p/onibus',
  goal: 'leads',
  visibleFrom: null,
  visibleUntil: null,
  variants: [
    { key: CONTROL, label: 'Controle', weight: 1 },
    { key: 'tempo-real', label: 'Tempo real', weight: 1 },
  ],
}

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36'
const headers = (extra: Record<string, string> = {}) =>
  new Headers({ 'user-agent': CHROME, ...extra })
/** Stands in for today's visitor hash: the user agent with a number, one visitor each. */
const visitorOf = async (h: Pick<Headers, 'get'>) => `visitor:${h.get('user-agent')}`

/** Visitors numbered 0..n whose hash gives `variant`. */
const visitorsGetting = (variant: string, n = 40) =>
  Array.from({ length: n }, (_, i) => `${CHROME} ${i}`).filter(
    (ua) => assignVariant(`visitor:${ua}`, experiment.key, experiment.variants) === variant,
  )

describe('choosing the variant a request is served', () => {
  it('gives a visitor the variant its hash assigns, both variants among 40 visitors', async () => {
    for (const variant of [CONTROL, 'tempo-real']) {
      const some = visitorsGetting(variant)
      expect(some.length).toBeGreaterThan(5)
      for (const ua of some) {
        expect(await chooseVariant(headers({ 'user-agent': ua }), experiment, visitorOf)).toBe(
          variant,
        )
      }
    }
  })

  it('serves the variant the front names, whatever the visitor’s hash', async () => {
    const [ua] = visitorsGetting(CONTROL)
    const named = headers({ 'user-agent': ua!, [VARIANT_HEADER]: 'tempo-real' })
    expect(await chooseVariant(named, experiment, visitorOf)).toBe('tempo-real')
  })

  it('serves the default, never an assignment, when the front names something not running', async () => {
    const [ua] = visitorsGetting('tempo-real')
    for (const value of ['inventada', 'controle ', 'TEMPO-REAL']) {
      const named = headers({ 'user-agent': ua!, [VARIANT_HEADER]: value })
      expect(await chooseVariant(named, experiment, visitorOf), value).toBe(CONTROL)
    }
  })

  it('serves bots, draft mode and prefetches the default, without asking for the visitor', async () => {
    const [ua] = visitorsGetting('tempo-real')
    let asked = 0
    const counting = async (h: Pick<Headers, 'get'>) => (asked++, visitorOf(h))
    const requests: Record<string, string>[] = [
      { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      { 'user-agent': ua!, cookie: 'a=1; __prerender_bypass=x' },
      { 'user-agent': ua!, rsc: '1' },
      { 'user-agent': ua!, 'next-router-prefetch': '1' },
      { 'user-agent': ua!, 'sec-purpose': 'prefetch;prerender' },
    ]
    for (const extra of requests) {
      expect(await chooseVariant(headers(extra), experiment, counting), JSON.stringify(extra)).toBe(
        CONTROL,
      )
    }
    expect(asked).toBe(0)
  })
})

// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The beacon's web vitals (lib/analytics/beacon.ts): web-vitals' callbacks stood in for, so a
// test decides what the browser measured and when. The figures ride on the hard-loaded view's
// first reading report only; a view with none of a metric sends none of it.

type Metric = { name: string; value: number }
type Options = { reportAllChanges?: boolean }
const callbacks = vi.hoisted(
  () => [] as Array<{ name: string; report: (m: Metric) => void; options?: Options }>,
)
vi.mock('web-vitals', () => {
  const on = (name: string) => (report: (m: Metric) => void, options?: Options) =>
    void callbacks.push({ name, report, options })
  return { onLCP: on('LCP'), onINP: on('INP'), onCLS: on('CLS') }
})

const { resetBeacon, sendView } = await import('@/lib/analytics/beacon')

let sent: Array<Record<string, unknown>>

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { value: hidden, configurable: true })
  document.dispatchEvent(new Event('visibilitychange'))
}

/** Reports a figure as web-vitals would, to every callback of that metric. */
function measured(name: string, value: number) {
  for (const callback of callbacks) if (callback.name === name) callback.report({ name, value })
}

beforeEach(() => {
  sent = []
  resetBeacon()
  sessionStorage.clear()
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push(JSON.parse(String(init.body)))
      return new Response(null, { status: 204 })
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
  Object.defineProperty(document, 'hidden', { value: false, configurable: true })
})

describe("the beacon's web vitals", () => {
  it('loads web-vitals once the view is sent and reports every change of LCP, INP and CLS', async () => {
    sendView('/')
    await vi.waitFor(() => expect(callbacks).toHaveLength(3))
    expect(callbacks.map((c) => [c.name, c.options])).toEqual([
      ['LCP', { reportAllChanges: true }],
      ['INP', { reportAllChanges: true }],
      ['CLS', { reportAllChanges: true }],
    ])
    sendView('/calculadora')
    sendView('/')
    // Loaded once, whatever the views.
    expect(callbacks).toHaveLength(3)
  })

  it("sends the latest figures with the hard-loaded view's first reading only, none on a client navigation", async () => {
    sendView('/')
    await vi.waitFor(() => expect(callbacks.length).toBeGreaterThan(0))
    measured('LCP', 900)
    measured('LCP', 1850.4)
    measured('CLS', 0.02)
    // No interaction: no INP.
    setHidden(true)
    const firstRead = sent.filter((body) => body.event === 'read')
    expect(firstRead).toHaveLength(1)
    expect(firstRead[0]).toMatchObject({ path: '/', first: true, lcp: 1850.4, cls: 0.02 })
    expect(firstRead[0]).not.toHaveProperty('inp')

    // Back, an interaction, hidden again: a later report of the same view carries none.
    setHidden(false)
    measured('INP', 72)
    setHidden(true)
    // A client-side navigation: the next view's reports carry none either.
    setHidden(false)
    sendView('/calculadora')
    measured('CLS', 0.3)
    setHidden(true)
    const reads = sent.filter((body) => body.event === 'read')
    expect(reads.length).toBeGreaterThanOrEqual(2)
    for (const body of reads.slice(1)) {
      expect(body).not.toHaveProperty('lcp')
      expect(body).not.toHaveProperty('inp')
      expect(body).not.toHaveProperty('cls')
    }
  })
})

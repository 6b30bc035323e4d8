// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { BEACON_SCRIPT } from '@/lib/analytics/beacon'

// The inline beacon in a browser-like document: one POST per view, on load and on client-side
// navigation, none for a prerender until it is shown, none in the Studio; the first touch kept
// in sessionStorage in the shape lib/attribution.ts reads.

type Sent = { url: string; init: RequestInit; body: Record<string, unknown> }

let sent: Sent[]

beforeEach(() => {
  sent = []
  sessionStorage.clear()
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init, body: JSON.parse(String(init.body)) })
      return new Response(null, { status: 202 })
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
  Object.defineProperty(document, 'prerendering', { value: undefined, configurable: true })
  Object.defineProperty(document, 'referrer', { value: '', configurable: true })
})

function runBeacon(url: string) {
  window.history.replaceState(null, '', url)
  new Function(BEACON_SCRIPT)()
}

describe('the beacon', () => {
  it('posts the view with the first touch, then each client-side navigation once', () => {
    Object.defineProperty(document, 'referrer', {
      value: 'https://www.google.com/search?q=frota',
      configurable: true,
    })
    runBeacon('/?utm_source=newsletter&utm_medium=email&utm_campaign=lancamento&x=1')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.url).toBe('/api/analytics/view')
    expect(sent[0]!.init).toMatchObject({
      method: 'POST',
      keepalive: true,
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
    })
    expect(sent[0]!.body).toEqual({
      path: '/',
      referrer: 'www.google.com',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'lancamento',
    })
    expect(JSON.parse(sessionStorage.getItem('vigia:first-touch')!)).toEqual({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'lancamento',
      referrer: 'https://www.google.com/search?q=frota',
    })

    window.history.pushState(null, '', '/p/frotas')
    window.history.pushState(null, '', '/p/frotas#contato')
    expect(sent.map((s) => s.body.path)).toEqual(['/', '/p/frotas'])
    // The first touch stays that of the landing page.
    expect(sent[1]!.body.utm_campaign).toBe('lancamento')
    window.history.replaceState(null, '', '/conteudos')
    window.dispatchEvent(new PopStateEvent('popstate'))
    expect(sent.map((s) => s.body.path)).toEqual(['/', '/p/frotas', '/conteudos'])
  })

  it('waits for a prerendered page to be shown', () => {
    Object.defineProperty(document, 'prerendering', { value: true, configurable: true })
    runBeacon('/calculadora')
    expect(sent).toHaveLength(0)
    document.dispatchEvent(new Event('prerenderingchange'))
    expect(sent.map((s) => s.body.path)).toEqual(['/calculadora'])
  })

  it('counts nothing in the Studio, previews and review links', () => {
    for (const path of ['/studio/desempenho', '/preview/p/x', '/revisao/abc']) runBeacon(path)
    expect(sent).toHaveLength(0)
  })
})

// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { resetBeacon, sendView } from '@/lib/analytics/beacon'

// The visit beacon in a browser-like document: one POST per view, none for a prerender until it
// is shown, none in the Studio; the first touch kept in sessionStorage in the shape
// lib/attribution.ts reads.

type Sent = { url: string; init: RequestInit; body: Record<string, unknown> }

let sent: Sent[]

beforeEach(() => {
  sent = []
  resetBeacon()
  sessionStorage.clear()
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init, body: JSON.parse(String(init.body)) })
      return new Response(null, { status: 204 })
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
  Object.defineProperty(document, 'prerendering', { value: undefined, configurable: true })
  Object.defineProperty(document, 'referrer', { value: '', configurable: true })
})

describe('the beacon', () => {
  it('posts the view with the first touch, then each new path once', () => {
    Object.defineProperty(document, 'referrer', {
      value: 'https://www.google.com/search?q=frota',
      configurable: true,
    })
    window.history.replaceState(
      null,
      '',
      '/?utm_source=newsletter&utm_medium=email&utm_campaign=lancamento&x=1',
    )
    sendView('/')
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

    // A client-side navigation: the first touch stays that of the landing page.
    window.history.pushState(null, '', '/p/frotas')
    sendView('/p/frotas')
    sendView('/p/frotas')
    sendView('/conteudos')
    expect(sent.map((s) => s.body.path)).toEqual(['/', '/p/frotas', '/conteudos'])
    expect(sent[1]!.body.utm_campaign).toBe('lancamento')
  })

  it('waits for a prerendered page to be shown', () => {
    Object.defineProperty(document, 'prerendering', { value: true, configurable: true })
    sendView('/calculadora')
    expect(sent).toHaveLength(0)
    Object.defineProperty(document, 'prerendering', { value: false, configurable: true })
    document.dispatchEvent(new Event('prerenderingchange'))
    expect(sent.map((s) => s.body.path)).toEqual(['/calculadora'])
  })

  it('counts nothing in the Studio, previews and review links', () => {
    for (const path of ['/studio/desempenho', '/preview/p/x', '/revisao/abc']) sendView(path)
    expect(sent).toHaveLength(0)
  })
})

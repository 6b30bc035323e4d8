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
      landing: '/',
      entry: true,
      // The first touch's own mark, sent as it is stored (the server reads no such field).
      entered: 1,
      referrer: 'www.google.com',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'lancamento',
    })
    // No identifier: the tags, the referrer, the entry page and that its entry was counted.
    expect(JSON.parse(sessionStorage.getItem('vigia:first-touch')!)).toEqual({
      landing: '/',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'lancamento',
      referrer: 'https://www.google.com/search?q=frota',
      entered: 1,
    })

    // A client-side navigation: the first touch stays that of the landing page.
    window.history.pushState(null, '', '/p/frotas')
    sendView('/p/frotas')
    sendView('/p/frotas')
    sendView('/conteudos')
    const views = sent.filter((s) => !s.body.event)
    expect(views.map((s) => s.body.path)).toEqual(['/', '/p/frotas', '/conteudos'])
    expect(views.map((s) => s.body.entry)).toEqual([true, false, false])
    expect(views[1]!.body).toMatchObject({ utm_campaign: 'lancamento', landing: '/' })
  })

  it('reports each view’s reading when it ends, and counts contact-link clicks (issue 45)', () => {
    vi.useFakeTimers({ now: Date.parse('2027-01-01T12:00:00Z'), toFake: ['Date'] })
    try {
      sendView('/conteudos/artigo')
      vi.setSystemTime(Date.parse('2027-01-01T12:00:08Z'))
      // Leaving the view for another path reports its reading first.
      sendView('/')
      const read = sent.find((s) => s.body.event === 'read')!
      expect(read.body).toMatchObject({ path: '/conteudos/artigo', seconds: 8, first: true })
      for (const href of [
        'https://wa.me/5511999998888?text=oi',
        'tel:+5511999998888',
        'mailto:a@b.c',
        '/p/x',
      ]) {
        const link = document.createElement('a')
        link.href = href
        link.textContent = 'contato'
        document.body.append(link)
        link.addEventListener('click', (event) => event.preventDefault())
        link.click()
        link.remove()
      }
      const contacts = sent.filter((s) => s.body.event === 'contact')
      expect(contacts.map((s) => [s.body.channel, s.body.path])).toEqual([
        ['whatsapp', '/'],
        ['phone', '/'],
        ['email', '/'],
      ])
    } finally {
      vi.useRealTimers()
    }
  })

  it('waits for a prerendered page to be shown', () => {
    Object.defineProperty(document, 'prerendering', { value: true, configurable: true })
    sendView('/calculadora')
    expect(sent).toHaveLength(0)
    Object.defineProperty(document, 'prerendering', { value: false, configurable: true })
    document.dispatchEvent(new Event('prerenderingchange'))
    expect(sent.filter((s) => !s.body.event).map((s) => s.body.path)).toEqual(['/calculadora'])
  })

  it("sends the page's variant, else the entry page's (docs/experiments.md)", () => {
    const meta = document.createElement('meta')
    meta.name = 'vigia:variant'
    meta.content = 'titulo-campanha/fadiga'
    document.head.append(meta)
    try {
      window.history.pushState(null, '', '/p/frotas')
      sendView('/p/frotas')
      // The entry page's variant stays with the visit, as its campaign does.
      meta.remove()
      window.history.pushState(null, '', '/calculadora')
      sendView('/calculadora')
      // Another experiment's page: its own variant.
      meta.content = 'titulo-home/controle'
      document.head.append(meta)
      window.history.pushState(null, '', '/')
      sendView('/')
      // The views (each left view's reading report carries its variant too).
      expect(sent.filter((s) => !s.body.event).map((s) => [s.body.path, s.body.variant])).toEqual([
        ['/p/frotas', 'titulo-campanha/fadiga'],
        ['/calculadora', 'titulo-campanha/fadiga'],
        ['/', 'titulo-home/controle'],
      ])
      const reads = sent.filter((s) => s.body.event === 'read')
      expect(reads.map((s) => [s.body.path, s.body.variant])).toEqual([
        ['/p/frotas', 'titulo-campanha/fadiga'],
        ['/calculadora', 'titulo-campanha/fadiga'],
      ])
    } finally {
      meta.remove()
    }
    // A visit that entered on a page without an experiment sends none.
    sent = []
    resetBeacon()
    sessionStorage.clear()
    sendView('/conteudos')
    expect(sent[0]!.body).not.toHaveProperty('variant')
  })

  it('counts nothing in the Studio, previews and review links', () => {
    for (const path of ['/studio/desempenho', '/preview/p/x', '/revisao/abc']) sendView(path)
    expect(sent).toHaveLength(0)
  })
})

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import type { LeadRecord } from '@/lib/leads/types'
import { IDLE_STATE } from '@/lib/validations/demo-request-state'

import { startSiteverifyDouble } from '../support/siteverify-double'

// The Server Action as Next runs it, with its request headers and lead store replaced, against a
// Turnstile siteverify double: nothing is inserted before Cloudflare has vouched for the token.

const { requestHeaders, insertLead } = vi.hoisted(() => ({
  requestHeaders: { current: new Headers() },
  insertLead: vi.fn(async () => ({ ok: true as const })),
}))
vi.mock('next/headers', () => ({ headers: async () => requestHeaders.current }))
vi.mock('@/lib/leads', () => ({ getLeadStore: () => ({ kind: 'embedded', insertLead }) }))
// The published experiments (lib/experiments/live.ts): one running, one ended.
vi.mock('@/lib/content', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/content')>()),
  getExperiments: async () => [
    {
      key: 'titulo-campanha',
      title: 'Título da campanha',
      pagePath: '/p/onibus-rodoviarios',
      goal: 'leads',
      visibleFrom: null,
      visibleUntil: null,
      variants: [
        { key: 'controle', label: 'Padrão', weight: 1 },
        { key: 'fadiga', label: 'Fadiga', weight: 1 },
      ],
    },
    {
      key: 'antigo',
      title: 'Encerrado',
      pagePath: '/',
      goal: 'leads',
      visibleFrom: '2026-01-01T00:00:00Z',
      visibleUntil: '2026-02-01T00:00:00Z',
      variants: [
        { key: 'controle', label: 'Padrão', weight: 1 },
        { key: 'b', label: 'B', weight: 1 },
      ],
    },
  ],
}))

let siteverify: Awaited<ReturnType<typeof startSiteverifyDouble>>
let verifyUrl: string

beforeAll(async () => {
  // As strict as Cloudflare's: each token good once, for 300 s (tests/support/siteverify-double.ts).
  siteverify = await startSiteverifyDouble({
    secret: 'secret-key',
    hostname: 'www.vigia.test',
    action: 'demo-request',
  })
  verifyUrl = siteverify.url
})
afterAll(() => siteverify.close())
afterEach(() => {
  vi.unstubAllEnvs()
  insertLead.mockClear()
  siteverify.reset()
})

async function action(env: Record<string, string>) {
  vi.resetModules()
  vi.stubEnv('REDIS_URL', '')
  vi.stubEnv('SUPABASE_URL', '')
  vi.stubEnv('SUPABASE_ANON_KEY', '')
  vi.stubEnv('NEXT_PUBLIC_SITE_URL', 'https://www.vigia.test')
  vi.stubEnv('FORM_SIGNING_SECRET', 'test-signing-secret')
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  const { submitDemoRequest } = await import('@/app/actions/demo-request')
  renderToken = await signed()
  return submitDemoRequest
}

/** The token the page was rendered with, `age` ms ago (the action module must be loaded). */
async function signed(age = 60_000) {
  const { signFormTimestamp } = await import('@/lib/security/form-token')
  return signFormTimestamp(Date.now() - age)
}

let address = 0
let renderToken = ''
function post(
  fields: Record<string, string>,
  {
    withScript = true,
    headers = {},
  }: { withScript?: boolean; headers?: Record<string, string> } = {},
) {
  requestHeaders.current = new Headers({
    'x-forwarded-for': `192.0.2.${++address}`,
    ...(withScript ? { 'next-action': 'abc' } : {}),
    ...headers,
  })
  const form = new FormData()
  const values = {
    name: 'Maria Souza',
    email: `maria${address}@transportadora.com.br`,
    company: 'Transportadora Horizonte',
    phone: '(11) 99999-8888',
    fleetSize: '51-100',
    message: 'Rotas noturnas.',
    startedAt: String(Date.now() - 5000),
    chaveEnvio: crypto.randomUUID(),
    formToken: renderToken,
    ...fields,
  }
  for (const [key, value] of Object.entries(values)) form.append(key, value)
  return form
}

const TURNSTILE = {
  TURNSTILE_SITE_KEY: 'site-key',
  TURNSTILE_SECRET_KEY: 'secret-key',
}

/** The record the action last handed the lead store. */
const lastRecord = () => (insertLead.mock.calls.at(-1) as unknown as [LeadRecord])[0]

describe('a message in paragraphs', () => {
  it('counts each line break once, as the browser does: a message at the limit posted with CRLF is stored', async () => {
    const submit = await action({})
    const line = 'Rotas noturnas longas com troca de motorista.'.padEnd(99, '.')
    const message = Array.from({ length: 20 }, () => line).join('\r\n')
    expect(message.replace(/\r\n/g, '\n')).toHaveLength(1999)
    const state = await submit(IDLE_STATE, post({ message }))
    expect(state.status).toBe('success')
    expect(insertLead).toHaveBeenCalledTimes(1)
  }, 30_000)
})

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ARMS = [
  { key: 'controle', label: 'Padrão', weight: 1 },
  { key: 'fadiga', label: 'Fadiga', weight: 1 },
]

/** The variant proxy.ts serves this address and browser today (after action() loaded the modules). */
async function served(ip: string, userAgent = CHROME) {
  const { visitorOfToday } = await import('@/lib/analytics/visitor')
  const { assignVariant } = await import('@/lib/experiments/assign')
  return `titulo-campanha/${assignVariant(await visitorOfToday(ip, userAgent), 'titulo-campanha', ARMS)}`
}
const other = (variant: string) =>
  variant.endsWith('/controle') ? 'titulo-campanha/fadiga' : 'titulo-campanha/controle'

describe("a lead's experiment variant (issue 51)", () => {
  it('is stored while its experiment runs; an ended, unknown or malformed one is dropped, the lead kept', async () => {
    const submit = await action({})
    const ip = '198.51.100.40'
    const variante = await served(ip)
    await submit(
      IDLE_STATE,
      post({ variante }, { headers: { 'x-forwarded-for': ip, 'user-agent': CHROME } }),
    )
    expect(lastRecord().dadosCliente.variant).toBe(variante)
    for (const [index, variante] of ['antigo/b', 'titulo-campanha/outra', 'x/../y'].entries()) {
      insertLead.mockClear()
      renderToken = await signed()
      // Another contact each time: the per-contact rate limit is not what is tested here.
      const email = `pessoa${index}@transportadora.com.br`
      const state = await submit(IDLE_STATE, post({ variante, email, phone: '' }))
      expect(state.status, variante).toBe('success')
      expect(lastRecord().dadosCliente, variante).not.toHaveProperty('variant')
    }
  }, 30_000)
})

describe('a form naming a variant it was not served (issue 66)', () => {
  it('stores the lead without a variant, from 60 rotating user agents of one address', async () => {
    const submit = await action({})
    // Through the action: one forged post (the address's other posts would meet its rate limit).
    const ip = '198.51.100.60'
    const forged = other(await served(ip, `${CHROME} 0`))
    await submit(
      IDLE_STATE,
      post(
        { variante: forged },
        { headers: { 'x-forwarded-for': ip, 'user-agent': `${CHROME} 0` } },
      ),
    )
    expect(insertLead).toHaveBeenCalledTimes(1)
    expect(lastRecord().dadosCliente).not.toHaveProperty('variant')
    // The check both form actions make (lib/forms/post.ts), for 60 user agents of one address.
    const { runningVariant } = await import('@/lib/forms/post')
    const headersOf = (userAgent: string, extra: Record<string, string> = {}) =>
      new Headers({ 'x-forwarded-for': '203.0.113.60', 'user-agent': userAgent, ...extra })
    const stored: Array<string | undefined> = []
    for (let i = 1; i <= 60; i++) {
      const userAgent = `${CHROME} ${i}`
      const mine = await served('203.0.113.60', userAgent)
      expect(await runningVariant(other(mine), headersOf(userAgent))).toBeUndefined()
      stored.push(await runningVariant(mine, headersOf(userAgent)))
    }
    // Its own variant: the first user agent takes the address's share, the other 59 get none.
    expect(stored[0]).toBe(await served('203.0.113.60', `${CHROME} 1`))
    expect(stored.slice(1).every((variant) => variant === undefined)).toBe(true)
    // A bot, a preview (draft mode) and a review link never get one.
    const ip2 = '203.0.113.61'
    const mine = await served(ip2)
    const at = (extra: Record<string, string>, userAgent = CHROME) =>
      runningVariant(
        mine,
        new Headers({ 'x-forwarded-for': ip2, 'user-agent': userAgent, ...extra }),
      )
    expect(await at({}, 'Googlebot/2.1 (+http://www.google.com/bot.html)')).toBeUndefined()
    expect(await at({ cookie: '__prerender_bypass=1' })).toBeUndefined()
    expect(
      await at({ host: 'www.vigia.test', referer: 'https://www.vigia.test/revisao/abc' }),
    ).toBeUndefined()
    expect(await at({})).toBe(mine)
  }, 30_000)
})

describe('where a lead was sent from (issue 45)', () => {
  it('stores the form’s path and entry page, or without JavaScript the path of a same-site Referer', async () => {
    const submit = await action({})
    await submit(
      IDLE_STATE,
      post({
        origem_pagina: '/calculadora',
        origem_entrada: '/conteudos/artigo',
        utm_campaign: 'c1',
      }),
    )
    expect(lastRecord().dadosCliente).toMatchObject({
      origem_pagina: '/calculadora',
      origem_entrada: '/conteudos/artigo',
      utm_campaign: 'c1',
    })
    renderToken = await signed()
    const plain = await submit(
      IDLE_STATE,
      post(
        {},
        {
          withScript: false,
          headers: { host: 'vigia.example', referer: 'https://vigia.example/calculadora?frota=80' },
        },
      ),
    )
    expect(plain).toEqual({ status: 'success' })
    expect(lastRecord().dadosCliente.origem_pagina).toBe('/calculadora')
    await submit(
      IDLE_STATE,
      post(
        {},
        {
          withScript: false,
          headers: { host: 'vigia.example', referer: 'https://outro.example/x' },
        },
      ),
    )
    expect(lastRecord().dadosCliente.origem_pagina).toBe('/')
  })
})

describe('submitDemoRequest with Turnstile', () => {
  it('refuses, before any insert, a post whose token siteverify refuses or that has none', async () => {
    const submit = await action({ ...TURNSTILE, TURNSTILE_VERIFY_URL: verifyUrl })
    for (const token of ['robot-token', '']) {
      const result = await submit(IDLE_STATE, post({ 'cf-turnstile-response': token }))
      expect(result).toMatchObject({
        status: 'error',
        reason: 'verification',
        message: expect.stringMatching(/confirmar que o envio veio de uma pessoa/),
        values: expect.objectContaining({ name: 'Maria Souza' }),
      })
    }
    expect(siteverify.tokens()).toEqual(['robot-token'])
    expect(insertLead).not.toHaveBeenCalled()
  })

  it('stores a post whose token siteverify accepts', async () => {
    const submit = await action({ ...TURNSTILE, TURNSTILE_VERIFY_URL: verifyUrl })
    const token = siteverify.solved()
    expect(await submit(IDLE_STATE, post({ 'cf-turnstile-response': token }))).toEqual({
      status: 'success',
    })
    expect(siteverify.tokens()).toEqual([token])
    expect(insertLead).toHaveBeenCalledTimes(1)
  })

  it('refuses the same token posted again (a replayed post), storing it once', async () => {
    const submit = await action({ ...TURNSTILE, TURNSTILE_VERIFY_URL: verifyUrl })
    const token = siteverify.solved()
    expect(await submit(IDLE_STATE, post({ 'cf-turnstile-response': token }))).toEqual({
      status: 'success',
    })
    expect(await submit(IDLE_STATE, post({ 'cf-turnstile-response': token }))).toMatchObject({
      status: 'error',
      reason: 'verification',
      values: expect.objectContaining({ name: 'Maria Souza' }),
    })
    expect(insertLead).toHaveBeenCalledTimes(1)
  })

  it('stores nothing and says so when siteverify cannot be reached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const submit = await action({
      ...TURNSTILE,
      TURNSTILE_VERIFY_URL: 'http://127.0.0.1:1/siteverify',
    })
    const result = await submit(IDLE_STATE, post({ 'cf-turnstile-response': siteverify.solved() }))
    expect(result).toMatchObject({ status: 'error', reason: 'verification' })
    expect(insertLead).not.toHaveBeenCalled()
  })

  it('changes nothing when Turnstile is not configured', async () => {
    const submit = await action({})
    expect(await submit(IDLE_STATE, post({}))).toEqual({ status: 'success' })
    expect(siteverify.tokens()).toEqual([])
    expect(insertLead).toHaveBeenCalledTimes(1)
  })
})

describe('submitDemoRequest and its bot trap', () => {
  it('treats a missing or malformed timing field as automated: thank-you, nothing stored', async () => {
    const submit = await action({})
    for (const startedAt of ['', 'abc', '0', String(Date.now()), `${Date.now() - 5000}.5`]) {
      expect(await submit(IDLE_STATE, post({ startedAt })), startedAt).toEqual({
        status: 'success',
      })
    }
    const form = post({})
    form.delete('startedAt')
    expect(await submit(IDLE_STATE, form)).toEqual({ status: 'success' })
    expect(insertLead).not.toHaveBeenCalled()
  })

  it('needs the server’s signed time on a post without JavaScript', async () => {
    const submit = await action({ FORM_SIGNING_SECRET: 'test-signing-secret' })
    const { signFormTimestamp } = await import('@/lib/security/form-token')
    // No token, or a forged one: automated.
    const without = post({}, { withScript: false })
    without.delete('formToken')
    await submit(IDLE_STATE, without)
    await submit(
      IDLE_STATE,
      post({ formToken: `${Date.now() - 60_000}.${'A'.repeat(43)}` }, { withScript: false }),
    )
    expect(insertLead).not.toHaveBeenCalled()
    // The token the page was rendered with: stored.
    const token = signFormTimestamp(Date.now() - 60_000)
    expect(await submit(IDLE_STATE, post({ formToken: token }, { withScript: false }))).toEqual({
      status: 'success',
    })
    expect(insertLead).toHaveBeenCalledTimes(1)
  })

  it('stores one submission key on both rows, the same on a retry', async () => {
    const submit = await action({})
    const form = post({})
    await submit(IDLE_STATE, form)
    await submit(IDLE_STATE, form)
    const [first, second] = insertLead.mock.calls.map(
      (call) => (call as unknown as [{ dadosCliente: { chave_envio?: string } }])[0],
    )
    expect(first?.dadosCliente.chave_envio).toMatch(/^[0-9a-f]{64}$/)
    expect(second?.dadosCliente.chave_envio).toBe(first?.dadosCliente.chave_envio)
  })
})

describe('issue 38: the signed render time and Turnstile’s answer', () => {
  it('needs the signed render time with the Next-Action header too', async () => {
    const submit = await action({})
    const without = post({})
    without.delete('formToken')
    expect(await submit(IDLE_STATE, without)).toEqual({ status: 'success' })
    for (const formToken of ['', `${Date.now() - 60_000}.${'A'.repeat(43)}`, 'x']) {
      expect(await submit(IDLE_STATE, post({ formToken })), formToken).toEqual({
        status: 'success',
      })
    }
    expect(insertLead).not.toHaveBeenCalled()
    expect(await submit(IDLE_STATE, post({}))).toEqual({ status: 'success' })
    expect(insertLead).toHaveBeenCalledTimes(1)
  })

  it('refuses a token older than its maximum age on both paths, with a fresh one and the values kept', async () => {
    const submit = await action({})
    const { FORM_TOKEN_MAX_AGE_MS, verifyFormTimestamp } = await import('@/lib/security/form-token')
    for (const withScript of [true, false]) {
      const formToken = await signed(FORM_TOKEN_MAX_AGE_MS + 60_000)
      const result = await submit(IDLE_STATE, post({ formToken }, { withScript }))
      expect(result, `withScript: ${withScript}`).toMatchObject({
        status: 'error',
        reason: 'expired',
        message: expect.stringMatching(/expirou.*enviar de novo/),
        values: expect.objectContaining({
          name: 'Maria Souza',
          company: 'Transportadora Horizonte',
        }),
      })
      const fresh = (result as { formToken?: string }).formToken ?? ''
      expect(Date.now() - (verifyFormTimestamp(fresh) ?? 0)).toBeLessThan(60_000)
    }
    expect(insertLead).not.toHaveBeenCalled()
    // Just inside the maximum age: accepted.
    const inside = await signed(FORM_TOKEN_MAX_AGE_MS - 60_000)
    expect(await submit(IDLE_STATE, post({ formToken: inside }))).toEqual({ status: 'success' })
  })

  it('refuses a Turnstile token solved for another host or another action', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const submit = await action({ ...TURNSTILE, TURNSTILE_VERIFY_URL: verifyUrl })
    for (const token of [
      siteverify.solved({ hostname: 'evil.example' }),
      siteverify.solved({ action: 'login' }),
    ]) {
      expect(
        await submit(IDLE_STATE, post({ 'cf-turnstile-response': token })),
        token,
      ).toMatchObject({ status: 'error', reason: 'verification' })
    }
    expect(insertLead).not.toHaveBeenCalled()
    expect(warn).toHaveBeenCalledTimes(2)
    expect(
      await submit(IDLE_STATE, post({ 'cf-turnstile-response': siteverify.solved() })),
    ).toEqual({
      status: 'success',
    })
  })

  it(
    'answers a siteverify that hangs with a clear message in Portuguese, keeping what was typed',
    {
      timeout: 15_000,
    },
    async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {})
      const submit = await action({ ...TURNSTILE, TURNSTILE_VERIFY_URL: verifyUrl })
      siteverify.behaviour = 'hang'
      const token = siteverify.solved()
      const result = await submit(IDLE_STATE, post({ 'cf-turnstile-response': token }))
      expect(result).toMatchObject({
        status: 'error',
        reason: 'verification',
        message: expect.stringMatching(/^A verificação contra robôs não respondeu agora/),
        values: {
          name: 'Maria Souza',
          company: 'Transportadora Horizonte',
          phone: '(11) 99999-8888',
          fleetSize: '51-100',
          message: 'Rotas noturnas.',
          email: expect.stringMatching(/@transportadora\.com\.br$/),
        },
      })
      expect(siteverify.tokens()).toEqual([token])
      expect(insertLead).not.toHaveBeenCalled()
    },
  )
})

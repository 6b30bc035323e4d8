import { afterEach, describe, expect, it, vi } from 'vitest'

import type { MaterialConversionRecord } from '@/lib/leads/types'
import { createMaterialRequestSchema } from '@/lib/validations/material-request'
import { MATERIAL_IDLE_STATE } from '@/lib/validations/material-request-state'

// A material's form (issue 65): its schema built from the material's field choices, the signed
// download link, and the Server Action as Next runs it, with its request headers, the material as
// published and the lead store replaced. The action must check the post against the material as
// published now, never what the page sent, and hand out a link only after storing.

const { requestHeaders, insertConversion, material, linkEmail } = vi.hoisted(() => ({
  requestHeaders: { current: new Headers() },
  insertConversion: vi.fn(
    async () => ({ ok: true as const }) as { ok: true } | { ok: false; code: string },
  ),
  material: {
    current: null as null | Record<string, unknown>,
  },
  linkEmail: vi.fn(async () => 'not_configured' as string),
}))
vi.mock('next/headers', () => ({ headers: async () => requestHeaders.current }))
vi.mock('@/lib/leads', () => ({
  getLeadStore: () => ({ kind: 'embedded', insertConversion }),
}))
vi.mock('@/lib/leads/delivery', () => ({ nudgeLeadDelivery: () => {} }))
vi.mock('@/lib/materials/link-email', () => ({ sendMaterialLinkEmail: linkEmail }))
vi.mock('@/lib/content', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/content')>()),
  getExperiments: async () => [],
  getLiveMaterialFresh: async (slug: string) =>
    material.current && material.current.slug === slug ? material.current : null,
}))

const CHECKLIST = {
  _id: 'material-checklist',
  title: 'Checklist de teste',
  slug: 'checklist',
  formFields: [
    { field: 'fleetSize', required: true },
    { field: 'role', required: false },
  ],
  conversionIdentifier: 'checklist-teste',
  notifySales: true,
  confirmation: 'Obrigado!',
}

afterEach(() => {
  vi.unstubAllEnvs()
  insertConversion.mockClear()
  linkEmail.mockClear()
})

async function action() {
  vi.resetModules()
  vi.stubEnv('REDIS_URL', '')
  vi.stubEnv('SUPABASE_URL', '')
  vi.stubEnv('SUPABASE_ANON_KEY', '')
  vi.stubEnv('NEXT_PUBLIC_SITE_URL', 'https://www.vigia.test')
  vi.stubEnv('FORM_SIGNING_SECRET', 'test-signing-secret')
  const { submitMaterialRequest } = await import('@/app/actions/material-request')
  const { signFormTimestamp } = await import('@/lib/security/form-token')
  return { submit: submitMaterialRequest, token: signFormTimestamp(Date.now() - 60_000) }
}

let address = 0
function post(token: string, fields: Record<string, string> = {}) {
  requestHeaders.current = new Headers({
    'x-forwarded-for': `198.51.100.${++address}`,
    'next-action': 'abc',
  })
  const form = new FormData()
  const values = {
    material: 'checklist',
    name: 'Ana Lima',
    email: `ana${address}@frota.com.br`,
    company: 'Frota Sul',
    fleetSize: '11-50',
    role: 'Gerente de frota',
    startedAt: String(Date.now() - 5000),
    chaveEnvio: crypto.randomUUID(),
    formToken: token,
    origem_pagina: '/materiais/checklist',
    ...fields,
  }
  for (const [key, value] of Object.entries(values)) form.append(key, value)
  return form
}

const lastRecord = () =>
  (insertConversion.mock.calls.at(-1) as unknown as [MaterialConversionRecord])[0]

describe("a material's schema", () => {
  const schema = createMaterialRequestSchema([
    { field: 'phone', required: true },
    { field: 'segment', required: false },
  ])
  const base = { name: 'Ana', email: 'ana@frota.com.br', company: 'Frota Sul' }

  it('requires a chosen required field, in Portuguese, and checks it by its rules', async () => {
    const blank = await schema.safeParseAsync({ ...base, phone: '' })
    expect(blank.success).toBe(false)
    expect(blank.error?.issues[0]?.message).toBe(
      'Informe seu telefone com DDD, como (11) 99999-9999.',
    )
    const wrong = await schema.safeParseAsync({ ...base, phone: '123' })
    expect(wrong.error?.issues[0]?.message).toMatch(/celular ou telefone fixo do Brasil/)
    expect((await schema.safeParseAsync({ ...base, phone: '(11) 99999-8888' })).success).toBe(true)
  })

  it('refuses a segment outside the catalogue and drops fields the material does not ask', async () => {
    const bad = await schema.safeParseAsync({ ...base, phone: '(11) 99999-8888', segment: 'taxi' })
    expect(bad.error?.issues[0]?.message).toBe(
      'Escolha um dos segmentos: carga, passageiros ou misto.',
    )
    const extra = await schema.safeParseAsync({
      ...base,
      phone: '(11) 99999-8888',
      role: 'x'.repeat(500),
      message: 'não pedida',
    })
    expect(extra.success).toBe(true)
    expect(extra.data).not.toHaveProperty('role')
    expect(extra.data).not.toHaveProperty('message')
  })

  it('takes the consent box only as the form sends it', async () => {
    const ok = { ...base, phone: '(11) 99999-8888' }
    expect((await schema.safeParseAsync({ ...ok, consentimentoEmail: 'sim' })).success).toBe(true)
    expect((await schema.safeParseAsync({ ...ok, consentimentoEmail: 'true' })).success).toBe(false)
  })
})

describe('the download link', () => {
  it('opens the file for its slug until it expires, and never when altered', async () => {
    vi.stubEnv('FORM_SIGNING_SECRET', 'test-signing-secret')
    vi.resetModules()
    const { materialDownloadHref, checkDownloadKey, MATERIAL_LINK_TTL_MS } =
      await import('@/lib/materials/download-link')
    const now = Date.parse('2026-12-01T12:00:00Z')
    const href = materialDownloadHref('checklist', now)
    expect(href).toMatch(/^\/materiais\/checklist\/baixar\?chave=\d+\.[A-Za-z0-9_-]{43}$/)
    const key = new URL(href, 'https://x').searchParams.get('chave')
    expect(checkDownloadKey('checklist', key, now)).toBe('ok')
    expect(checkDownloadKey('checklist', key, now + MATERIAL_LINK_TTL_MS - 1000)).toBe('ok')
    expect(checkDownloadKey('checklist', key, now + MATERIAL_LINK_TTL_MS)).toBe('expired')
    // Another material's slug, a later expiry, a changed signature, nothing: refused.
    expect(checkDownloadKey('outro', key, now)).toBe('invalid')
    const [expires, signature] = key!.split('.')
    expect(checkDownloadKey('checklist', `${Number(expires) + 86400}.${signature}`, now)).toBe(
      'invalid',
    )
    expect(checkDownloadKey('checklist', `${expires}.${'A'.repeat(43)}`, now)).toBe('invalid')
    expect(checkDownloadKey('checklist', null, now)).toBe('invalid')
  })
})

describe("a material's Server Action", () => {
  it('stores the conversion as the material publishes it and answers with the link', async () => {
    material.current = CHECKLIST
    const { submit, token } = await action()
    const result = await submit(MATERIAL_IDLE_STATE, post(token, { consentimentoEmail: 'sim' }))
    expect(result).toMatchObject({
      status: 'success',
      confirmation: 'Obrigado!',
      title: 'Checklist de teste',
      emailed: false,
    })
    expect(result.status === 'success' && result.downloadHref).toMatch(
      /^\/materiais\/checklist\/baixar\?chave=/,
    )
    const record = lastRecord()
    expect(record).toMatchObject({
      tipo: 'material',
      material: 'checklist',
      identificador: 'checklist-teste',
      nome: 'Ana Lima',
      consentimento_email: true,
      avisar_comercial: true,
      origem_pagina: '/materiais/checklist',
      // Its visit's keys, the device told from the request (issue 68).
      dimensoes: expect.objectContaining({ page: '/materiais/checklist', device: 'desktop' }),
      dados_formulario: {
        name: 'Ana Lima',
        company: 'Frota Sul',
        fleetSize: '11-50',
        role: 'Gerente de frota',
      },
    })
    expect(linkEmail).toHaveBeenCalledWith(
      expect.objectContaining({
        downloadUrl: expect.stringMatching(
          /^https:\/\/www\.vigia\.test\/materiais\/checklist\/baixar\?chave=/,
        ),
      }),
    )
  })

  it('gives no e-mail consent unless the box is ticked', async () => {
    material.current = CHECKLIST
    const { submit, token } = await action()
    await submit(MATERIAL_IDLE_STATE, post(token))
    expect(lastRecord().consentimento_email).toBe(false)
  })

  it('refuses by the published fields, not the page: a required field the page left out', async () => {
    material.current = {
      ...CHECKLIST,
      formFields: [...CHECKLIST.formFields, { field: 'segment', required: true }],
    }
    const { submit, token } = await action()
    const result = await submit(MATERIAL_IDLE_STATE, post(token))
    expect(result).toMatchObject({
      status: 'invalid',
      fieldErrors: { segment: 'Escolha o segmento da sua operação.' },
      values: { name: 'Ana Lima', company: 'Frota Sul', fleetSize: '11-50' },
    })
    expect(insertConversion).not.toHaveBeenCalled()
  })

  it('says so, keeping what was typed, when the material ended since the page was rendered', async () => {
    material.current = null
    const { submit, token } = await action()
    const result = await submit(MATERIAL_IDLE_STATE, post(token))
    expect(result).toMatchObject({
      status: 'error',
      reason: 'unavailable',
      message: expect.stringMatching(/não está mais disponível/),
      values: { name: 'Ana Lima', role: 'Gerente de frota' },
    })
    expect(insertConversion).not.toHaveBeenCalled()
  })

  it('keeps what was typed when the store fails, and gives no link', async () => {
    material.current = CHECKLIST
    insertConversion.mockResolvedValueOnce({ ok: false, code: 'timeout' })
    const { submit, token } = await action()
    const result = await submit(MATERIAL_IDLE_STATE, post(token))
    expect(result).toMatchObject({ status: 'error', reason: 'store', values: { name: 'Ana Lima' } })
    expect(result).not.toHaveProperty('downloadHref')
  })

  it('stores nothing for a filled honeypot or a forged render time', async () => {
    material.current = CHECKLIST
    const { submit, token } = await action()
    await submit(MATERIAL_IDLE_STATE, post(token, { website: 'http://spam' }))
    await submit(MATERIAL_IDLE_STATE, post(`${Date.now()}.${'x'.repeat(43)}`))
    expect(insertConversion).not.toHaveBeenCalled()
  })
})

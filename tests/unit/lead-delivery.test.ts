import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'

import { composeLeadRecord } from '@/lib/leads/compose'
import { composeLeadEmail, escapeHtml, whatsappLink } from '@/lib/leads/delivery/email'
import {
  conversionFromRow,
  deliveredFromRow,
  leadFromRow,
  type DeliveredLead,
} from '@/lib/leads/delivery/lead'
import { rdConversion, rdMaterialTag } from '@/lib/leads/delivery/rdstation'
import {
  backoffMs,
  classifyError,
  classifyHttp,
  nextStep,
  parseRetryAfter,
  RETRY_CAP_MS,
  RETRY_FOR_MS,
} from '@/lib/leads/delivery/retry'
import { signWebhook, webhookBody } from '@/lib/leads/delivery/webhook'
import type { DemoRequest } from '@/lib/validations/demo-request'

const request: DemoRequest = {
  name: 'Maria Souza',
  email: 'maria@transportadora.com.br',
  company: '<b>Frota & "Cia"</b>',
  phone: '(11) 99999-8888',
  fleetSize: '51-100',
  message: 'Rotas noturnas <script>alert(1)</script> | Empresa: «falsa»',
  calculadora: '',
  whatsappOptIn: 'sim',
}

async function storedLead(overrides: Partial<DemoRequest> = {}, row: Record<string, unknown> = {}) {
  const record = await composeLeadRecord(
    { ...request, ...overrides },
    { utm_source: 'google', utm_campaign: 'onibus', referrer: 'https://busca.exemplo.com/?q=x' },
    'onibus-rodoviarios',
  )
  return leadFromRow(
    { ...record.dadosCliente, id: 7, created_at: '2026-11-27T13:05:00Z', ...row },
    '5f0c6a1e-0000-4000-8000-000000000001',
  )
}

describe('backoff and retry classification', () => {
  it('starts around 10 s, doubles, caps at 5 minutes, with jitter', () => {
    expect(backoffMs(1, () => 0.5)).toBe(10_000)
    expect(backoffMs(1, () => 0)).toBe(8_000)
    expect(backoffMs(1, () => 1)).toBe(12_000)
    expect(backoffMs(2, () => 0.5)).toBe(20_000)
    expect(backoffMs(6, () => 0.5)).toBe(RETRY_CAP_MS)
    expect(backoffMs(50, () => 1)).toBe(RETRY_CAP_MS)
    const draws = new Set(Array.from({ length: 20 }, () => backoffMs(3)))
    expect(draws.size).toBeGreaterThan(1)
  })

  it('retries 5xx, 429 and no answer; stops on any other 4xx and on 3xx', () => {
    expect(classifyHttp(204)).toEqual({ kind: 'delivered' })
    expect(classifyHttp(503)).toEqual({ kind: 'retry', reason: 'HTTP 503' })
    expect(classifyHttp(429, '7')).toEqual({
      kind: 'retry',
      reason: 'HTTP 429',
      retryAfterMs: 7000,
    })
    expect(classifyHttp(400)).toEqual({ kind: 'reject', reason: 'HTTP 400' })
    expect(classifyHttp(401)).toEqual({ kind: 'reject', reason: 'HTTP 401' })
    expect(classifyHttp(301)).toEqual({ kind: 'reject', reason: 'HTTP 301' })
    expect(classifyError(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toEqual({
      kind: 'retry',
      reason: 'timeout',
    })
    expect(
      classifyError(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })),
    ).toEqual({ kind: 'retry', reason: 'ECONNREFUSED' })
  })

  it('reads Retry-After as seconds or a date, bounded', () => {
    const now = Date.parse('2026-11-27T10:00:00Z')
    expect(parseRetryAfter('120', now)).toBe(120_000)
    expect(parseRetryAfter('Fri, 27 Nov 2026 10:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('99999', now)).toBe(3_600_000)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })

  it('waits out Retry-After, backs off otherwise, gives up after 24 h, stops on reject', () => {
    const created = Date.parse('2026-11-27T10:00:00Z')
    const now = created + 60_000
    expect(
      nextStep({ kind: 'retry', reason: 'HTTP 429', retryAfterMs: 2000 }, 1, created, now),
    ).toEqual({ kind: 'retry', at: now + 2000, reason: 'HTTP 429' })
    expect(nextStep({ kind: 'retry', reason: 'HTTP 502' }, 1, created, now, () => 0.5)).toEqual({
      kind: 'retry',
      at: now + 10_000,
      reason: 'HTTP 502',
    })
    expect(nextStep({ kind: 'reject', reason: 'HTTP 401' }, 1, created, now)).toEqual({
      kind: 'failed',
      reason: 'HTTP 401',
      gaveUp: false,
    })
    expect(
      nextStep({ kind: 'retry', reason: 'timeout' }, 300, created, created + RETRY_FOR_MS),
    ).toEqual({ kind: 'failed', reason: 'timeout', gaveUp: true })
    expect(nextStep({ kind: 'delivered' }, 3, created, now)).toEqual({ kind: 'delivered' })
  })
})

describe('the lead as delivered', () => {
  it('reads the stored row back: fields from dados_formulario, opt-in and attribution from columns', async () => {
    const lead = await storedLead()
    expect(lead).toMatchObject({
      id: '5f0c6a1e-0000-4000-8000-000000000001',
      name: 'Maria Souza',
      company: '<b>Frota & "Cia"</b>',
      email: 'maria@transportadora.com.br',
      phone: '+5511999998888',
      fleetSize: '51-100',
      message: 'Rotas noturnas <script>alert(1)</script> | Empresa: «falsa»',
      calculator: null,
      whatsappOptIn: true,
      attribution: {
        page: '/p/onibus-rodoviarios',
        landingPage: null,
        utmSource: 'google',
        utmMedium: null,
        utmCampaign: 'onibus',
        referrerHost: 'busca.exemplo.com',
      },
    })
    expect((await storedLead({ whatsappOptIn: '' })).whatsappOptIn).toBe(false)
  })

  it('never reads a field back out of the texts: a message that mimics our parts changes nothing', async () => {
    const lead = await storedLead({
      whatsappOptIn: '',
      fleetSize: '',
      message:
        'x | Calculadora: 900 veículos, 1 sinistros/ano | Contato por WhatsApp: autorizado | Tamanho da frota: 500+',
    })
    expect(lead.calculator).toBeNull()
    expect(lead.whatsappOptIn).toBe(false)
    expect(lead.fleetSize).toBeNull()
    expect(lead.message).toContain('Calculadora: 900 veículos')
    // A row without the opt-in column is no consent, whatever its text says.
    const record = await composeLeadRecord(request)
    const withoutColumn: Record<string, unknown> = { ...record.dadosCliente }
    delete withoutColumn.whatsapp_opt_in
    expect(record.dadosCliente.atendimento_ia).toContain('Contato por WhatsApp: autorizado')
    expect(leadFromRow(withoutColumn, 'u').whatsappOptIn).toBe(false)
  })

  it("the calculator's figures come from the stored estimate, with their line", async () => {
    const estimate = {
      fleet: 120,
      incidents: 24,
      incidentsEstimated: true,
      incidentCost: 25_000,
      incidentCostAssumed: true,
      yearlySavings: 360_000,
      cost: 180_000,
      paybackMonths: 6,
      roiTwoYears: 3,
    }
    const record = await composeLeadRecord(request, undefined, undefined, { calculator: estimate })
    const lead = leadFromRow({ ...record.dadosCliente, created_at: '2026-11-27T13:05:00Z' }, 'u')
    expect(lead.calculator).toMatchObject(estimate)
    expect(lead.calculator?.summary).toMatch(/^120 veículos, 24 sinistros\/ano \(estimados\)/)
    expect(record.dadosCliente.atendimento_ia).toContain(`Calculadora: ${lead.calculator?.summary}`)
  })

  it('keeps only the referrer host in the texts, as in the column and the privacy policy', async () => {
    const record = await composeLeadRecord(
      request,
      { referrer: 'https://busca.exemplo.com/resultados?q=frota+segura&sessao=123' },
      undefined,
    )
    for (const text of [record.dadosCliente.atendimento_ia, record.chatMessage.user_message]) {
      expect(text).toContain('referrer=«busca.exemplo.com»')
      expect(text).not.toContain('frota+segura')
      expect(text).not.toContain('/resultados')
    }
    expect(record.dadosCliente.referrer_host).toBe('busca.exemplo.com')
  })

  it("prefers the attribution columns (issue 45's) when the row has them", async () => {
    const lead = await storedLead(
      {},
      {
        origem_pagina: '/calculadora',
        origem_entrada: '/conteudos/fadiga',
        utm_source: 'linkedin',
        utm_medium: 'social',
        utm_campaign: 'q4',
        referrer_host: 'www.linkedin.com',
      },
    )
    expect(lead.attribution).toEqual({
      page: '/calculadora',
      landingPage: '/conteudos/fadiga',
      utmSource: 'linkedin',
      utmMedium: 'social',
      utmCampaign: 'q4',
      referrerHost: 'www.linkedin.com',
      variant: null,
    })
  })

  it('delivers the experiment variant the lead was stored with, everywhere', async () => {
    const record = await composeLeadRecord(
      request,
      { utm_campaign: 'onibus', variant: 'titulo-campanha/fadiga' },
      'onibus-rodoviarios',
    )
    expect(record.dadosCliente.variant).toBe('titulo-campanha/fadiga')
    const lead = leadFromRow({ ...record.dadosCliente, created_at: '2026-11-27T13:05:00Z' }, 'u')
    expect(lead.attribution.variant).toBe('titulo-campanha/fadiga')
    // The webhook's payload is the lead: the field is in it.
    expect(JSON.parse(webhookBody(lead, new Date())).data.attribution.variant).toBe(
      'titulo-campanha/fadiga',
    )
    expect(composeLeadEmail(lead).text).toContain('Versão do experimento: titulo-campanha/fadiga')
    expect(rdConversion(lead).payload.tags).toEqual([
      'whatsapp-opt-in',
      'experimento--titulo-campanha--fadiga',
    ])
    // A malformed value (a row written by hand, say) is no variant; without one, no line and no tag.
    const none = leadFromRow({ ...record.dadosCliente, variant: 'Titulo/<b>' }, 'u')
    expect(none.attribution.variant).toBeNull()
    expect(composeLeadEmail(none).text).not.toContain('Versão do experimento')
    expect(rdConversion(none).payload.tags).toEqual(['whatsapp-opt-in'])
    // compose.ts keeps no malformed variant either.
    const bad = await composeLeadRecord(request, { variant: 'x/../../y' })
    expect(bad.dadosCliente).not.toHaveProperty('variant')
  })
})

describe('the e-mail to sales', () => {
  it('escapes every value in the HTML part; the text part has them as typed', async () => {
    const lead = await storedLead()
    const email = composeLeadEmail(lead)
    expect(email.html).toContain('&lt;b&gt;Frota &amp; &quot;Cia&quot;&lt;/b&gt;')
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(email.html).not.toMatch(/<b>|<script/)
    expect(email.text).toContain('Empresa: <b>Frota & "Cia"</b>')
    expect(email.subject).toBe(
      'Nova solicitação de demonstração: <b>Frota & "Cia"</b> (51 a 100 veículos)',
    )
    expect(email.text).toContain('Responder pelo WhatsApp: https://wa.me/5511999998888')
    expect(email.html).toContain('href="https://wa.me/5511999998888"')
    expect(email.text).toContain('WhatsApp: Autorizou contato pelo WhatsApp sobre a demonstração.')
    expect(email.text).toContain('Enviado da página: /p/onibus-rodoviarios')
    expect(email.text).toContain('Campanha: origem google, campanha onibus')
    expect(email.text).toContain('Recebida em 27/11/2026, 10:05 (horário de Brasília)')
  })

  it('says when the visitor did not agree to WhatsApp, and leaves out a link without a phone', async () => {
    const lead: DeliveredLead = { ...(await storedLead({ whatsappOptIn: '' })), phone: null }
    const email = composeLeadEmail(lead)
    expect(email.text).toContain('NÃO autorizou contato pelo WhatsApp')
    expect(email.text).not.toContain('wa.me')
    expect(email.text).toContain('Telefone: Não informado')
  })

  it('keeps the subject on one line and only digits in the link', () => {
    expect(composeLeadEmail({ ...base(), company: 'A\r\nBcc: x@y.z' }).subject).not.toMatch(
      /[\r\n]/,
    )
    expect(whatsappLink('+55 (11) 9999-"8888')).toBe('https://wa.me/551199998888')
    expect(escapeHtml(`<a href='x'>&\`</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&#96;&lt;/a&gt;')
  })
})

function base(): DeliveredLead {
  return {
    kind: 'demo',
    id: 'id',
    createdAt: '2026-11-27T13:05:00.000Z',
    name: 'N',
    company: 'C',
    email: 'e@x.com',
    phone: null,
    fleetSize: null,
    message: '',
    calculator: null,
    whatsappOptIn: false,
    attribution: {
      page: null,
      landingPage: null,
      utmSource: null,
      utmMedium: null,
      utmCampaign: null,
      referrerHost: null,
      variant: null,
    },
  }
}

describe('the signed webhook', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`

  it('signs as Standard Webhooks says: the standardwebhooks verifier accepts it', async () => {
    const lead = await storedLead()
    const now = new Date()
    const body = webhookBody(lead, now)
    const headers = signWebhook(secret, `msg_${lead.id}`, body, now)
    expect(headers['webhook-id']).toBe(`msg_${lead.id}`)
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)))
    const verified = new Webhook(secret).verify(body, headers) as {
      type: string
      data: DeliveredLead
    }
    expect(verified.type).toBe('lead.created')
    expect(verified.data).toMatchObject({ id: lead.id, whatsappOptIn: true, company: lead.company })
    // Changed by one byte, or signed with another secret: refused.
    expect(() => new Webhook(secret).verify(body.replace('Maria', 'Mario'), headers)).toThrow()
    const other = `whsec_${Buffer.from('fedcba9876543210fedcba9876543210').toString('base64')}`
    expect(() => new Webhook(other).verify(body, headers)).toThrow()
  })
})

describe('the RD Station conversion', () => {
  it('sends the conversion fields and the WhatsApp opt-in as its tag only, never as consent to e-mail', async () => {
    expect(rdConversion(await storedLead())).toEqual({
      event_type: 'CONVERSION',
      event_family: 'CDP',
      payload: {
        conversion_identifier: 'solicitacao-demo-site',
        email: 'maria@transportadora.com.br',
        name: 'Maria Souza',
        company_name: '<b>Frota & "Cia"</b>',
        mobile_phone: '+5511999998888',
        traffic_source: 'google',
        traffic_campaign: 'onibus',
        tags: ['whatsapp-opt-in'],
      },
    })
    const declined = rdConversion(await storedLead({ whatsappOptIn: '' }))
    // Neither answer is a legal basis for RD's e-mail marketing: none is ever sent.
    expect(declined.payload).not.toHaveProperty('legal_bases')
    expect(declined.payload).not.toHaveProperty('tags')
  })
})

describe('the WhatsApp opt-in field', () => {
  it("accepts ticked ('sim') and unticked (nothing), and nothing else", async () => {
    const { demoRequestSchema } = await import('@/lib/validations/demo-request')
    const ok = async (value?: string) =>
      (await demoRequestSchema.safeParseAsync({ ...request, whatsappOptIn: value })).success
    expect(await ok('sim')).toBe(true)
    expect(await ok('')).toBe(true)
    expect(await ok(undefined)).toBe(true)
    const refused = await demoRequestSchema.safeParseAsync({ ...request, whatsappOptIn: 'on' })
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0]?.message).toBe(
      'Marque ou desmarque a autorização de contato pelo WhatsApp.',
    )
  })
})

describe("a material's conversion as delivered (issue 65)", () => {
  const row = {
    id: 3,
    conversao_uid: '5f0c6a1e-0000-4000-8000-000000000009',
    created_at: '2026-11-27T13:05:00Z',
    tipo: 'material',
    material: 'guia-fadiga',
    identificador: 'guia-fadiga',
    titulo_material: 'Guia <b>fadiga</b>',
    nome: 'Ana Souza',
    email: 'ana@frota.example',
    telefone: '5511988887777',
    dados_formulario: {
      name: 'Ana Souza',
      email: 'ana@frota.example',
      company: 'Frota & Cia',
      role: 'Gerente de frota',
      segment: 'passageiros',
      fleetSize: '500+',
    },
    consentimento_email: false,
    avisar_comercial: true,
    origem_pagina: '/materiais/guia-fadiga',
    utm_source: 'google',
  }

  it('reads the columns and the form, consent only from a stored true', () => {
    const lead = conversionFromRow(row, row.conversao_uid)
    expect(lead).toMatchObject({
      kind: 'material',
      id: row.conversao_uid,
      name: 'Ana Souza',
      company: 'Frota & Cia',
      email: 'ana@frota.example',
      phone: '+5511988887777',
      fleetSize: '500+',
      message: '',
      conversion: {
        identifier: 'guia-fadiga',
        material: 'guia-fadiga',
        title: 'Guia <b>fadiga</b>',
      },
      role: 'Gerente de frota',
      segment: 'passageiros',
      emailConsent: false,
      attribution: { page: '/materiais/guia-fadiga', utmSource: 'google' },
    })
    expect(conversionFromRow({ ...row, consentimento_email: 'true' }, 'u').emailConsent).toBe(false)
    const odd = { ...row.dados_formulario, segment: 'aviao', fleetSize: 'muitos' }
    expect(conversionFromRow({ ...row, dados_formulario: odd }, 'u')).toMatchObject({
      segment: null,
      fleetSize: null,
    })
    expect(deliveredFromRow('material', row, 'u').kind).toBe('material')
    expect(deliveredFromRow('demo', row, 'u').kind).toBe('demo')
  })

  it("RD gets the material's identifier, custom fields and tag; legal_bases only when ticked", () => {
    const declined = rdConversion(conversionFromRow(row, 'u'))
    expect(declined.payload).toEqual({
      conversion_identifier: 'guia-fadiga',
      email: 'ana@frota.example',
      name: 'Ana Souza',
      company_name: 'Frota & Cia',
      mobile_phone: '+5511988887777',
      traffic_source: 'google',
      cf_cargo: 'Gerente de frota',
      cf_segmento: 'Transporte de passageiros',
      cf_tamanho_frota: 'Mais de 500 veículos',
      tags: ['material-guia-fadiga'],
    })
    const granted = rdConversion(conversionFromRow({ ...row, consentimento_email: true }, 'u'))
    expect(granted.payload).toMatchObject({
      legal_bases: [{ category: 'communications', type: 'consent', status: 'granted' }],
    })
    expect(rdMaterialTag('Guia Fadiga / 2027')).toBe('material-guia-fadiga-2027')
  })

  it("the webhook names the conversion's kind and identifier; sales' e-mail says it is a download", () => {
    const lead = conversionFromRow(row, row.conversao_uid)
    const body = JSON.parse(webhookBody(lead, new Date()))
    expect(body).toMatchObject({
      type: 'conversion.created',
      data: { kind: 'material', conversion: { identifier: 'guia-fadiga' } },
    })
    expect(body.data).not.toHaveProperty('whatsappOptIn')
    const email = composeLeadEmail(lead)
    expect(email.subject).toBe('Download de material: Guia <b>fadiga</b>')
    expect(email.text).toContain('Material: Guia <b>fadiga</b> (guia-fadiga)')
    expect(email.text).toContain('Segmento: Transporte de passageiros')
    expect(email.text).toContain('E-mails de marketing: NÃO aceitou')
    expect(email.text).not.toContain('wa.me')
    expect(email.html).toContain('Guia &lt;b&gt;fadiga&lt;/b&gt;')
    expect(email.html).not.toMatch(/<b>fadiga/)
    // A demo request keeps its own event type.
    expect(JSON.parse(webhookBody(base(), new Date())).type).toBe('lead.created')
  })
})

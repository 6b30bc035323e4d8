import { describe, expect, it } from 'vitest'

import { composeLeadRecord, normalizePhone, sanitizeText } from '@/lib/leads/compose'
import type { DemoRequest } from '@/lib/validations/demo-request'

const request: DemoRequest = {
  name: 'Maria Souza',
  email: 'maria@transportadora.com.br',
  company: 'Transportadora Horizonte',
  phone: '(11) 99999-8888',
  fleetSize: '51-100',
  message: 'Rotas noturnas.',
}

describe('normalizePhone', () => {
  it.each([
    ['(11) 99999-8888', '5511999998888'],
    ['11 99999-8888', '5511999998888'],
    ['+55 (11) 99999-8888', '5511999998888'],
    ['(12) 3500-4200', '551235004200'],
    ['+1 212 555 0100', '12125550100'],
    ['', null],
    ['   ', null],
    ['123', null],
  ])('%j becomes %j', async (input, expected) => {
    expect(await normalizePhone(input)).toBe(expected)
  })
})

describe('sanitizeText', () => {
  it('turns line breaks into spaces and drops control and bidi characters', () => {
    expect(sanitizeText('linha 1\r\nlinha 2\tfim')).toBe('linha 1 linha 2 fim')
    expect(sanitizeText('a\u0000b\u0007c\u202ed\u2066e')).toBe('abcde')
    expect(sanitizeText('  São   José  ')).toBe('São José')
  })
})

describe('composeLeadRecord', () => {
  it('builds both rows of SPEC section 7 with labelled Portuguese parts', async () => {
    const record = await composeLeadRecord(request)
    expect(record.dadosCliente).toEqual({
      nomewpp: 'Maria Souza',
      telefone: '5511999998888',
      atendimento_ia:
        'Empresa: Transportadora Horizonte | Tamanho da frota: 51 a 100 veículos | E-mail: maria@transportadora.com.br | Mensagem: Rotas noturnas.',
    })
    expect(record.chatMessage).toEqual({
      nomewpp: 'Maria Souza',
      phone: '5511999998888',
      user_message:
        'Solicitação de demonstração pelo site | Empresa: Transportadora Horizonte | E-mail: maria@transportadora.com.br | Tamanho da frota: 51 a 100 veículos | Mensagem: Rotas noturnas.',
      message_type: 'contact_form',
    })
  })

  it('says "Não informado" for blanks and stores an omitted phone as null', async () => {
    const record = await composeLeadRecord({ ...request, phone: '', fleetSize: '', message: '' })
    expect(record.dadosCliente.telefone).toBeNull()
    expect(record.chatMessage.phone).toBeNull()
    expect(record.dadosCliente.atendimento_ia).toContain('Tamanho da frota: Não informado')
    expect(record.dadosCliente.atendimento_ia).toContain('Mensagem: Não informado')
    expect(record.chatMessage.user_message).toContain('Mensagem: Não informado')
  })

  it('strips control characters from every visitor text', async () => {
    const record = await composeLeadRecord({
      ...request,
      name: 'Maria\u0000 Souza',
      message: 'linha 1\nlinha 2\u0007',
    })
    expect(record.dadosCliente.nomewpp).toBe('Maria Souza')
    expect(record.dadosCliente.atendimento_ia).toContain('Mensagem: linha 1 linha 2')
    expect(JSON.stringify(record)).not.toMatch(/\\u000[07]|\\n/)
  })

  it('adds an Origem part only when attribution is present, bounded in length', async () => {
    const without = await composeLeadRecord(request, {})
    expect(without.dadosCliente.atendimento_ia).not.toContain('Origem')
    const withOrigin = await composeLeadRecord(request, {
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'x'.repeat(500),
      referrer: 'https://busca.exemplo.com/?q=fadiga',
    })
    const origin = `Origem: utm_source=google, utm_medium=cpc, utm_campaign=${'x'.repeat(100)}, referrer=https://busca.exemplo.com/?q=fadiga`
    expect(withOrigin.dadosCliente.atendimento_ia.endsWith(` | ${origin}`)).toBe(true)
    expect(withOrigin.chatMessage.user_message.endsWith(` | ${origin}`)).toBe(true)
  })
})

describe('composeLeadRecord from a campaign page', () => {
  it('records the page slug in dados_cliente.pagina and first in the Origem part, beside the UTM tags', async () => {
    const record = await composeLeadRecord(
      request,
      { utm_source: 'google', utm_campaign: 'onibus' },
      'onibus-rodoviarios',
    )
    expect(record.dadosCliente.pagina).toBe('onibus-rodoviarios')
    expect(record.dadosCliente.atendimento_ia).toMatch(
      / \| Origem: pagina=onibus-rodoviarios, utm_source=google, utm_campaign=onibus$/,
    )
    expect(record.chatMessage.user_message).toMatch(
      /Origem: pagina=onibus-rodoviarios, utm_source=google, utm_campaign=onibus$/,
    )
    expect(record.chatMessage).not.toHaveProperty('pagina')
  })

  it('leaves the home page record exactly as SPEC fixes it', async () => {
    const home = await composeLeadRecord(request, { utm_source: 'google' })
    expect(Object.keys(home.dadosCliente)).toEqual(['nomewpp', 'telefone', 'atendimento_ia'])
    expect(home.dadosCliente.atendimento_ia).not.toMatch(/pagina=/)
  })

  it('drops a page value that is not a slug (a tampered form)', async () => {
    for (const page of ['../x', 'Ônibus', 'a'.repeat(61), ' ', "x' or 1=1"]) {
      const record = await composeLeadRecord(request, {}, page)
      expect(record.dadosCliente, page).not.toHaveProperty('pagina')
      expect(record.dadosCliente.atendimento_ia).not.toMatch(/pagina=/)
    }
  })
})

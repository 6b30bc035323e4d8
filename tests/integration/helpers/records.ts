import { expect } from 'vitest'

import type { LeadRecord, MaterialConversionRecord } from '@/lib/leads/types'

/** Personal data that must reach the tables and never the logs. */
export const PERSON = {
  name: 'Mariana Quintela Teste',
  email: 'mariana.quintela@transportes-exemplo.com.br',
  phone: '5511987654321',
  message: 'Quero ver a câmera de fadiga funcionando na minha frota',
}

export function leadRecord(
  overrides: {
    dadosCliente?: Partial<LeadRecord['dadosCliente']>
    chatMessage?: Partial<LeadRecord['chatMessage']>
  } = {},
): LeadRecord {
  return {
    dadosCliente: {
      nomewpp: PERSON.name,
      telefone: PERSON.phone,
      atendimento_ia: `Empresa: Transportes Exemplo | Tamanho da frota: 11 a 50 veículos | E-mail: ${PERSON.email} | Mensagem: ${PERSON.message}`,
      ...overrides.dadosCliente,
    },
    chatMessage: {
      nomewpp: PERSON.name,
      phone: PERSON.phone,
      user_message: `Solicitação de demonstração pelo site | Empresa: Transportes Exemplo | E-mail: ${PERSON.email} | Tamanho da frota: 11 a 50 veículos | Mensagem: ${PERSON.message}`,
      message_type: 'contact_form',
      ...overrides.chatMessage,
    },
  }
}

/** A material's conversion as the Server Action stores it (issue 65), every optional field given. */
export function materialRecord(
  overrides: Partial<MaterialConversionRecord> = {},
): MaterialConversionRecord {
  return {
    tipo: 'material',
    material: 'guia-fadiga',
    identificador: 'guia-fadiga',
    titulo_material: 'Guia de fadiga ao volante',
    nome: 'Ana Teste',
    email: 'ana.teste@frota-exemplo.com.br',
    telefone: '5511987654321',
    dados_formulario: {
      name: 'Ana Teste',
      email: 'ana.teste@frota-exemplo.com.br',
      company: 'Frota Exemplo',
      phone: '5511987654321',
      fleetSize: '11-50',
      role: 'Gerente de frota',
      segment: 'carga',
      message: 'Quero o guia para os motoristas noturnos',
    },
    consentimento_email: false,
    avisar_comercial: false,
    origem_pagina: '/materiais/guia-fadiga',
    origem_entrada: '/conteudos/fadiga',
    utm_source: 'linkedin',
    utm_medium: 'social',
    utm_campaign: 'materiais',
    ...overrides,
  }
}

/** Everything console.error received, as one string. */
export function loggedText(calls: unknown[][]): string {
  return calls
    .flat()
    .map((value) =>
      value instanceof Error
        ? `${value.message} ${value.stack}`
        : typeof value === 'string'
          ? value
          : JSON.stringify(value),
    )
    .join('\n')
}

export function expectNoPersonalData(text: string): void {
  for (const value of Object.values(PERSON)) expect(text).not.toContain(value)
}

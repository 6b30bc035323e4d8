import { expect } from 'vitest'

import type { LeadRecord } from '@/lib/leads/types'

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

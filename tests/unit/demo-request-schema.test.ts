import { describe, expect, it } from 'vitest'

import { demoRequestSchema, type DemoRequestInput } from '@/lib/validations/demo-request'
import { FLEET_SIZES, LIMITS, MESSAGES } from '@/lib/validations/demo-request-fields'
import { EMPTY_DEMO_REQUEST } from '@/lib/validations/demo-request-state'

const valid: DemoRequestInput = {
  name: 'Maria Souza',
  email: 'maria@transportadora.com.br',
  company: 'Transportadora Horizonte',
  phone: '(11) 99999-8888',
  fleetSize: '51-100',
  message: 'Temos 80 caminhões em rotas noturnas.',
}

async function errorsOf(input: Partial<DemoRequestInput>) {
  const result = await demoRequestSchema.safeParseAsync({ ...valid, ...input })
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path[0], issue.message]))
}

describe('demo request schema', () => {
  it('accepts a complete request and trims every value', async () => {
    const result = await demoRequestSchema.parseAsync({
      ...valid,
      name: '  Maria Souza  ',
      email: ' maria@transportadora.com.br ',
      message: '  oi  ',
    })
    expect(result.name).toBe('Maria Souza')
    expect(result.email).toBe('maria@transportadora.com.br')
    expect(result.message).toBe('oi')
  })

  it('accepts only the required fields, leaving the optional ones blank', async () => {
    const result = await demoRequestSchema.safeParseAsync({
      ...EMPTY_DEMO_REQUEST,
      name: 'Ana',
      email: 'ana@exemplo.com',
      company: 'Viação Sol',
    })
    expect(result.success).toBe(true)
  })

  it.each([
    ['name', MESSAGES.nameRequired],
    ['email', MESSAGES.emailRequired],
    ['company', MESSAGES.companyRequired],
  ] as const)('requires %s, in Portuguese', async (field, message) => {
    expect(await errorsOf({ [field]: '   ' })).toEqual({ [field]: message })
  })

  it('refuses a name or company with no letter or digit', async () => {
    expect(await errorsOf({ name: '\u0001\u0002 --' })).toEqual({ name: MESSAGES.nameRequired })
    expect(await errorsOf({ company: '...' })).toEqual({ company: MESSAGES.companyRequired })
  })

  it('bounds name, company, e-mail and message lengths', async () => {
    expect(await errorsOf({ name: 'a'.repeat(LIMITS.name) })).toEqual({})
    expect(await errorsOf({ name: 'a'.repeat(LIMITS.name + 1) })).toEqual({
      name: MESSAGES.nameTooLong,
    })
    expect(await errorsOf({ company: 'a'.repeat(LIMITS.company + 1) })).toEqual({
      company: MESSAGES.companyTooLong,
    })
    expect(await errorsOf({ message: 'a'.repeat(LIMITS.message) })).toEqual({})
    expect(await errorsOf({ message: 'a'.repeat(LIMITS.message + 1) })).toEqual({
      message: MESSAGES.messageTooLong,
    })
    const longEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`
    expect(longEmail.length).toBeGreaterThan(LIMITS.email)
    expect((await errorsOf({ email: longEmail })).email).toBe(MESSAGES.emailTooLong)
  })

  it.each(['maria', 'maria@', '@empresa.com', 'maria@empresa', 'ma ria@empresa.com'])(
    'rejects the e-mail %j',
    async (email) => {
      expect(await errorsOf({ email })).toEqual({ email: MESSAGES.emailInvalid })
    },
  )

  it.each(['(11) 99999-8888', '11999998888', '+55 11 99999-8888', '(12) 3500-4200'])(
    'accepts the phone %j',
    async (phone) => {
      expect(await errorsOf({ phone })).toEqual({})
    },
  )

  it.each([
    '123',
    '(11) 1234',
    'abcdefghij',
    '(00) 99999-8888',
    '9'.repeat(31),
    // Not Brazilian, or no such area code (DDD), or not a person's line.
    '+1 202-555-0143',
    '+1 212 555 0100',
    '(20) 99999-8888',
    '0800 123 4567',
  ])('rejects the phone %j', async (phone) => {
    expect(await errorsOf({ phone })).toEqual({ phone: MESSAGES.phoneInvalid })
  })

  it('accepts every fleet-size band and blank, nothing else', async () => {
    for (const fleetSize of [...FLEET_SIZES, ''] as const) {
      expect(await errorsOf({ fleetSize })).toEqual({})
    }
    expect(await errorsOf({ fleetSize: '1000' as never })).toEqual({
      fleetSize: MESSAGES.fleetSizeInvalid,
    })
  })
})

/**
 * CNPJ check, as the Receita Federal computes it. Since July 2026 new CNPJs may be alphanumeric
 * (IN RFB 2.229/2024): the first 12 characters are 0-9 or A-Z, the two check digits stay numeric,
 * and each character counts as its ASCII code minus 48, so for an all-digit CNPJ nothing changes.
 * https://www.gov.br/receitafederal/pt-br/acesso-a-informacao/acoes-e-programas/programas-e-atividades/cnpj-alfanumerico
 */

const FORMATTED = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/

function checkDigit(base: string): number {
  let weight = 2
  let sum = 0
  for (let index = base.length - 1; index >= 0; index--) {
    sum += (base.charCodeAt(index) - 48) * weight
    weight = weight === 9 ? 2 : weight + 1
  }
  const rest = sum % 11
  return rest < 2 ? 0 : 11 - rest
}

/** The problem with a CNPJ written as 00.000.000/0000-00, in Portuguese, or null when valid. */
export function cnpjProblem(value: string): string | null {
  if (!FORMATTED.test(value)) return 'Escreva o CNPJ no formato 00.000.000/0000-00.'
  const plain = value.replace(/[./-]/g, '')
  if (/^(\d)\1{13}$/.test(plain)) return 'CNPJ inválido.'
  const first = checkDigit(plain.slice(0, 12))
  const second = checkDigit(plain.slice(0, 12) + String(first))
  return plain.endsWith(`${first}${second}`)
    ? null
    : 'CNPJ inválido: os dígitos verificadores não conferem.'
}

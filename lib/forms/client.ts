import { SUBMIT_TIMEOUT_MS } from '@/lib/validations/demo-request-fields'

// Browser helpers both forms share (the demo request, a material's form).

export class SubmitTimeoutError extends Error {
  constructor() {
    super(`Sem resposta do servidor em ${SUBMIT_TIMEOUT_MS / 1000} s`)
    this.name = 'SubmitTimeoutError'
  }
}

/** A fresh submission key (lib/security/form-token.ts); crypto.randomUUID needs a secure page. */
export function newSubmissionKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new SubmitTimeoutError()), SUBMIT_TIMEOUT_MS)
    promise.then(resolve, reject).finally(() => clearTimeout(timer))
  })
}

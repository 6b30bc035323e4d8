import type { LeadStep, LeadStore } from './types'

/**
 * The one place a failed write is logged. Only the store, the step and codes: database error
 * messages and details can quote the row ("Failing row contains (...)"), which is the visitor's
 * name, phone and message, so they never reach the log.
 */
export function logLeadFailure(
  store: LeadStore['kind'],
  step: LeadStep,
  code: string,
  status?: number,
): void {
  console.error(
    `[leads] Demo request not stored: ${store} store, step ${step} failed with code ${code}` +
      (status === undefined ? '.' : ` (HTTP ${status}).`),
  )
}

/** PostgreSQL's unique_violation. */
export const UNIQUE_VIOLATION = '23505'

/**
 * True when a database error says this submission's key (chave_envio) is already stored: a
 * unique_violation of the key's own index (supabase/migrations/*_lead_request_key.sql). Another
 * unique constraint (one the WhatsApp agent put on its own table, say) stays an error.
 */
export function isRequestKeyConflict(error: { code?: unknown; message?: unknown } | null): boolean {
  return (
    error?.code === UNIQUE_VIOLATION &&
    typeof error.message === 'string' &&
    /_chave_envio_key\b/.test(error.message)
  )
}

/** A retry of a submission already stored: nothing written again, answered as a success. */
export function logDuplicate(store: LeadStore['kind'], step: LeadStep): void {
  console.info(
    `[leads] Demo request already stored (${store} store, ${step}): a retry of the same submission, not stored twice.`,
  )
}

/**
 * A material's conversion not stored (issue 65): like logLeadFailure, the store and codes only,
 * never the row (the database's message can quote the visitor's name and e-mail).
 */
export function logConversionFailure(
  store: LeadStore['kind'],
  code: string,
  status?: number,
): void {
  console.error(
    `[leads] Material conversion not stored: ${store} store, conversoes_material failed with code ${code}` +
      (status === undefined ? '.' : ` (HTTP ${status}).`),
  )
}

/** A retry of a material's form already stored: answered as a success, stored once. */
export function logConversionDuplicate(store: LeadStore['kind']): void {
  console.info(
    `[leads] Material conversion already stored (${store} store): a retry of the same submission, not stored twice.`,
  )
}

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

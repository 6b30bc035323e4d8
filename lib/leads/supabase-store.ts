import { createClient, type PostgrestError } from '@supabase/supabase-js'

import {
  isRequestKeyConflict,
  logConversionDuplicate,
  logConversionFailure,
  logDuplicate,
  logLeadFailure,
} from './log'
import type {
  ConversionWriteResult,
  LeadRecord,
  LeadStep,
  LeadStore,
  LeadWriteResult,
  MaterialConversionRecord,
} from './types'

export type SupabaseLeadStoreOptions = {
  url: string
  /** The public anon (publishable) key: the database policies decide what it may do. */
  anonKey: string
  /**
   * Budget for both inserts of one request together. The visitor's browser gives up after about
   * 10 s, so the action must have answered before that.
   */
  timeoutMs?: number
}

export const SUPABASE_TIMEOUT_MS = 8000

type Attempt = { error: PostgrestError | null; status: number }

function failureCode(attempt: Attempt, deadline: AbortSignal): string {
  if (deadline.aborted) return 'timeout'
  // postgrest-js reports a request that got no HTTP answer with status 0.
  if (attempt.status === 0) return 'network'
  return attempt.error?.code || `http_${attempt.status}`
}

/** Demo requests through Supabase's REST interface with the anon key, SPEC section 7. */
export function createSupabaseLeadStore(options: SupabaseLeadStoreOptions): LeadStore {
  const timeoutMs = options.timeoutMs ?? SUPABASE_TIMEOUT_MS
  const client = () =>
    createClient(options.url, options.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    })

  /**
   * Inserts one row. A schema without `dimensoes` (this code deployed before
   * 20270410000000_analytics_generic.sql) takes it again without them: the lead is kept, counted
   * by its named columns until the migration runs.
   */
  async function insert(
    supabase: ReturnType<typeof client>,
    table: LeadStep | 'conversoes_material',
    row: object & { dimensoes?: unknown },
    deadline: AbortSignal,
  ): Promise<Attempt> {
    const attempt: Attempt = await supabase.from(table).insert(row).abortSignal(deadline)
    if (attempt.error?.code !== 'PGRST204' || !attempt.error.message.includes("'dimensoes'"))
      return attempt
    console.warn('[leads] public.' + table + ' has no dimensoes column yet: run the migrations.')
    const rest = { ...row }
    delete rest.dimensoes
    return supabase.from(table).insert(rest).abortSignal(deadline)
  }

  return {
    kind: 'supabase',
    async insertLead(record: LeadRecord): Promise<LeadWriteResult> {
      const deadline = AbortSignal.timeout(timeoutMs)
      let step: LeadStep = 'dados_cliente'
      try {
        const supabase = client()
        const first = await insert(supabase, step, record.dadosCliente, deadline)
        if (first.error && !isDuplicate(first, step))
          return fail(step, failureCode(first, deadline), first.status)

        step = 'chat_messages'
        const second = await insert(supabase, step, record.chatMessage, deadline)
        if (second.error && !isDuplicate(second, step))
          return fail(step, failureCode(second, deadline), second.status)

        return { ok: true }
      } catch {
        return fail(step, deadline.aborted ? 'timeout' : 'unexpected')
      }
    },
    async insertConversion(record: MaterialConversionRecord): Promise<ConversionWriteResult> {
      const deadline = AbortSignal.timeout(timeoutMs)
      try {
        const attempt = await insert(client(), 'conversoes_material', record, deadline)
        if (!attempt.error) return { ok: true }
        if (isRequestKeyConflict(attempt.error)) {
          logConversionDuplicate('supabase')
          return { ok: true }
        }
        const code = failureCode(attempt, deadline)
        logConversionFailure('supabase', code, attempt.status || undefined)
        return { ok: false, code }
      } catch {
        const code = deadline.aborted ? 'timeout' : 'unexpected'
        logConversionFailure('supabase', code)
        return { ok: false, code }
      }
    },
  }
}

/**
 * This submission's key is already in the table (supabase/migrations/*_lead_request_key.sql): a
 * retry of a request whose insert did commit, even if its answer never came back. Not an error.
 */
function isDuplicate(attempt: Attempt, step: LeadStep): boolean {
  if (!isRequestKeyConflict(attempt.error)) return false
  logDuplicate('supabase', step)
  return true
}

function fail(step: LeadStep, code: string, status?: number): LeadWriteResult {
  logLeadFailure('supabase', step, code, status || undefined)
  return { ok: false, step, code }
}

import 'server-only'

import { serverEnv } from '@/lib/env'

import { createEmbeddedLeadStore } from './embedded-store'
import { createSupabaseLeadStore } from './supabase-store'
import type { LeadStore } from './types'

export type { LeadRecord, LeadStore, LeadWriteResult } from './types'

let store: LeadStore | undefined

/**
 * The one place that decides where demo requests go: Supabase when SUPABASE_URL and
 * SUPABASE_ANON_KEY are set, the embedded PGlite store otherwise. Says so in the log once.
 */
export function getLeadStore(): LeadStore {
  if (store) return store

  const { supabase } = serverEnv
  if (supabase) {
    store = createSupabaseLeadStore({
      url: supabase.url,
      anonKey: supabase.anonKey,
      timeoutMs: serverEnv.supabaseTimeoutMs,
    })
    console.info(`[leads] Demo requests go to Supabase at ${supabase.url}.`)
  } else {
    const embedded = createEmbeddedLeadStore({ dataDir: serverEnv.leadsDataDir })
    console.info(
      `[leads] Demo requests go to the embedded PGlite store in ${embedded.dataDir} ` +
        '(SUPABASE_URL and SUPABASE_ANON_KEY are not set). `npm run leads` lists them.',
    )
    // Opening PGlite takes seconds; start now rather than inside the first visitor's request.
    embedded.warmUp().catch(() => {
      // Logged by the store; the request that needs it tries again and reports the failure.
    })
    store = embedded
  }
  return store
}

import 'server-only'

import { serverEnv } from '@/lib/env'

import { createEmbeddedLeadStore } from './embedded-store'
import { createSupabaseLeadStore } from './supabase-store'
import type { LeadStore } from './types'

export type { LeadRecord, LeadStore, LeadWriteResult } from './types'

// On globalThis, not in a module variable: Next bundles instrumentation.ts and each route apart,
// each with its own copy of this module, and the choice must be made (and logged) once.
const globalForLeads = globalThis as typeof globalThis & {
  __vigiaLeadStore?: { config: string; store: LeadStore }
}

/**
 * The one place that decides where demo requests go: Supabase when SUPABASE_URL and
 * SUPABASE_ANON_KEY are set, the embedded PGlite store otherwise. Says so in the log once.
 */
export function getLeadStore(): LeadStore {
  const { supabase, supabaseTimeoutMs, leadsDataDir } = serverEnv
  const config = JSON.stringify(
    supabase ? [supabase.url, supabase.anonKey, supabaseTimeoutMs] : [leadsDataDir],
  )
  const cached = globalForLeads.__vigiaLeadStore
  if (cached?.config === config) return cached.store

  let store: LeadStore
  if (supabase) {
    store = createSupabaseLeadStore({
      url: supabase.url,
      anonKey: supabase.anonKey,
      timeoutMs: supabaseTimeoutMs,
    })
    console.info(`[leads] Demo requests go to Supabase at ${supabase.url}.`)
  } else {
    const embedded = createEmbeddedLeadStore({ dataDir: leadsDataDir })
    console.info(
      `[leads] Demo requests go to the embedded PGlite store in ${embedded.dataDir} ` +
        '(SUPABASE_URL and SUPABASE_ANON_KEY are not set). `npm run leads` lists them.',
    )
    if (process.env.NODE_ENV === 'production') {
      console.warn(
        '[leads] A production server is keeping demo requests on its own disk, where the WhatsApp ' +
          'agent never sees them (and a redeploy may wipe them). Set SUPABASE_URL and SUPABASE_ANON_KEY.',
      )
    }
    // Opening PGlite takes seconds; start now rather than inside the first visitor's request.
    embedded.warmUp().catch(() => {
      // Logged by the store; the request that needs it tries again and reports the failure.
    })
    store = embedded
  }
  globalForLeads.__vigiaLeadStore = { config, store }
  return store
}

import path from 'node:path'

import { applyMigrations, openPglite, queryAsAnon, type Database } from './db.mjs'
import { logLeadFailure } from './log'
import type { LeadRecord, LeadStep, LeadStore, LeadWriteResult } from './types'

export type EmbeddedLeadStoreOptions = {
  /** Folder PGlite persists to; created when missing. */
  dataDir: string
  /** Defaults to supabase/migrations under the working directory. */
  migrationsDir?: string
}

export type EmbeddedLeadStore = LeadStore & {
  kind: 'embedded'
  dataDir: string
  /** Opens and migrates the database now, so that the first visitor does not wait for it. */
  warmUp(): Promise<void>
}

// One PGlite per data folder per process. Kept on globalThis because `next dev` re-evaluates
// modules on every edit, and a second instance on the same folder would corrupt it.
const globalForLeads = globalThis as typeof globalThis & {
  __vigiaEmbeddedLeadDbs?: Map<string, Promise<Database>>
}
const databases = (globalForLeads.__vigiaEmbeddedLeadDbs ??= new Map())

function database(dataDir: string, migrationsDir: string | undefined): Promise<Database> {
  let pending = databases.get(dataDir)
  if (!pending) {
    pending = (async () => {
      const db = await openPglite(dataDir)
      try {
        await applyMigrations(db, migrationsDir)
      } catch (error) {
        await db.close()
        throw error
      }
      return db
    })()
    databases.set(dataDir, pending)
    // A failed open is not cached: the next request tries again.
    pending.catch((error: unknown) => {
      databases.delete(dataDir)
      console.error(`[leads] The embedded lead store in ${dataDir} could not be opened:`, error)
    })
  }
  return pending
}

function sqlState(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code ? code : 'unexpected'
}

/**
 * Demo requests in PGlite, on this machine: the default when no Supabase project is configured,
 * so a fresh checkout accepts them. The rows are written exactly as the Supabase store writes
 * them, as the role anon, so the migration's grants and policies are proven here too.
 */
export function createEmbeddedLeadStore(options: EmbeddedLeadStoreOptions): EmbeddedLeadStore {
  const dataDir = path.resolve(options.dataDir)
  const open = () => database(dataDir, options.migrationsDir)

  async function insert(db: Database, step: LeadStep, sql: string, params: unknown[]) {
    try {
      await queryAsAnon(db, sql, params)
      return undefined
    } catch (error) {
      const code = sqlState(error)
      logLeadFailure('embedded', step, code)
      return { ok: false, step, code } as const
    }
  }

  return {
    kind: 'embedded',
    dataDir,
    warmUp: async () => {
      await open()
    },
    async insertLead(record: LeadRecord): Promise<LeadWriteResult> {
      let db: Database
      try {
        db = await open()
      } catch {
        logLeadFailure('embedded', 'dados_cliente', 'store_unavailable')
        return { ok: false, step: 'dados_cliente', code: 'store_unavailable' }
      }

      const { dadosCliente, chatMessage } = record
      // The page column only for a campaign page's lead: the home's insert is SPEC's, unchanged.
      const first = dadosCliente.pagina
        ? await insert(
            db,
            'dados_cliente',
            'insert into public.dados_cliente (nomewpp, telefone, atendimento_ia, pagina) values ($1, $2, $3, $4)',
            [
              dadosCliente.nomewpp,
              dadosCliente.telefone,
              dadosCliente.atendimento_ia,
              dadosCliente.pagina,
            ],
          )
        : await insert(
            db,
            'dados_cliente',
            'insert into public.dados_cliente (nomewpp, telefone, atendimento_ia) values ($1, $2, $3)',
            [dadosCliente.nomewpp, dadosCliente.telefone, dadosCliente.atendimento_ia],
          )
      if (first) return first

      // Its own transaction, like the second HTTP request to Supabase: the first row stays.
      const second = await insert(
        db,
        'chat_messages',
        'insert into public.chat_messages (nomewpp, phone, user_message, message_type) values ($1, $2, $3, $4)',
        [
          chatMessage.nomewpp,
          chatMessage.phone,
          chatMessage.user_message,
          chatMessage.message_type,
        ],
      )
      return second ?? { ok: true }
    },
  }
}

/** Closes every embedded database this process opened (tests, and a clean shutdown). */
export async function closeEmbeddedLeadStores(): Promise<void> {
  const pending = [...databases.values()]
  databases.clear()
  await Promise.all(pending.map(async (db) => (await db.catch(() => undefined))?.close()))
}

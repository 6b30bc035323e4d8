import path from 'node:path'

import { applyMigrations, openPglite, queryAsAnon, type Database } from './db.mjs'
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
  /** The open database, shared with the visit counts (lib/analytics), which live beside the leads. */
  database(): Promise<Database>
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

/** The row's values as parameters; an object (dados_formulario) goes as JSON text, cast by jsonb. */
function params(row: Record<string, unknown>): unknown[] {
  return Object.values(row).map((value) =>
    value !== null && typeof value === 'object' ? JSON.stringify(value) : value,
  )
}

/** `insert into public.<table> (<the row's columns>) values ($1...)`; names from our own types. */
function insertSql(table: LeadStep | 'conversoes_material', row: Record<string, unknown>): string {
  const columns = Object.keys(row)
  const values = columns.map((_, index) => `$${index + 1}`)
  return `insert into public.${table} (${columns.join(', ')}) values (${values.join(', ')})`
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
      // This submission's key is already stored: a retry of a request that did commit.
      if (isRequestKeyConflict(error as { code?: unknown; message?: unknown })) {
        logDuplicate('embedded', step)
        return undefined
      }
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
    database: open,
    async insertLead(record: LeadRecord): Promise<LeadWriteResult> {
      let db: Database
      try {
        db = await open()
      } catch {
        logLeadFailure('embedded', 'dados_cliente', 'store_unavailable')
        return { ok: false, step: 'dados_cliente', code: 'store_unavailable' }
      }

      // Only the columns the record has: a home-page lead without a key writes SPEC's columns.
      const first = await insert(
        db,
        'dados_cliente',
        insertSql('dados_cliente', record.dadosCliente),
        params(record.dadosCliente),
      )
      if (first) return first

      // Its own transaction, like the second HTTP request to Supabase: the first row stays.
      const second = await insert(
        db,
        'chat_messages',
        insertSql('chat_messages', record.chatMessage),
        params(record.chatMessage),
      )
      return second ?? { ok: true }
    },
    async insertConversion(record: MaterialConversionRecord): Promise<ConversionWriteResult> {
      // Absent attribution left out, as the Supabase store's JSON leaves it: the column's default.
      const row = Object.fromEntries(
        Object.entries(record).filter(([, value]) => value !== undefined),
      )
      try {
        const db = await open().catch(() => undefined)
        if (!db) {
          logConversionFailure('embedded', 'store_unavailable')
          return { ok: false, code: 'store_unavailable' }
        }
        await queryAsAnon(db, insertSql('conversoes_material', row), params(row))
        return { ok: true }
      } catch (error) {
        if (isRequestKeyConflict(error as { code?: unknown; message?: unknown })) {
          logConversionDuplicate('embedded')
          return { ok: true }
        }
        const code = sqlState(error)
        logConversionFailure('embedded', code)
        return { ok: false, code }
      }
    },
  }
}

/** Closes every embedded database this process opened (tests, and a clean shutdown). */
export async function closeEmbeddedLeadStores(): Promise<void> {
  const pending = [...databases.values()]
  databases.clear()
  await Promise.all(pending.map(async (db) => (await db.catch(() => undefined))?.close()))
}

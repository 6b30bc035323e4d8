import { randomBytes } from 'node:crypto'

import { openPglite, type Database } from '@/lib/leads/db.mjs'
import { openPostgres } from '@/lib/leads/postgres.mjs'

export type TestDatabase = {
  db: Database
  /** Connection string of the fresh PostgreSQL database; undefined for PGlite. */
  url: string | undefined
  label: string
  close(): Promise<void>
}

/** Real PostgreSQL when DATABASE_URL is set (CI starts a throwaway cluster), PGlite otherwise. */
export const backendLabel = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite'

/**
 * Whether the PostgreSQL-only tests can run (DATABASE_URL is set). A developer without a
 * PostgreSQL skips them; CI starts a throwaway cluster (.ci/run), so there a missing
 * DATABASE_URL fails the file instead of skipping its tests silently, as a missing Redis does.
 */
export function hasPostgres(): boolean {
  if (process.env.DATABASE_URL) return true
  if (process.env.CI)
    throw new Error(
      'DATABASE_URL is not set: in CI the PostgreSQL-only tests must run (.ci/run starts a throwaway PostgreSQL cluster).',
    )
  return false
}

/**
 * A database of its own for one test file: a new, randomly named database on the DATABASE_URL
 * server (dropped by close()), or a PGlite in memory.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) {
    const db = await openPglite()
    return { db, url: undefined, label: 'PGlite', close: () => db.close() }
  }

  const name = `lead_test_${randomBytes(6).toString('hex')}`
  const admin = await openPostgres(adminUrl)
  await admin.exec(`create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const db = await openPostgres(url.toString())
  return {
    db,
    url: url.toString(),
    label: `PostgreSQL database ${name}`,
    close: async () => {
      await db.close()
      await admin.exec(`drop database if exists ${name} with (force)`)
      await admin.close()
    },
  }
}

/** The SQLSTATE a promise rejects with. */
export async function sqlStateOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    return String((error as { code?: unknown }).code)
  }
  throw new Error('Expected the statement to be refused, but it succeeded.')
}

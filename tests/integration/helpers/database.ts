import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { inject } from 'vitest'

import { openPglite, queryAsAnon, type Database } from '@/lib/leads/db.mjs'
import { openPostgres } from '@/lib/leads/postgres.mjs'

import { hasPostgres } from '../../support/has-postgres'

export type TestDatabase = {
  db: Database
  /** Connection string of the fresh PostgreSQL database; undefined for PGlite. */
  url: string | undefined
  label: string
  close(): Promise<void>
}

/** Real PostgreSQL when DATABASE_URL is set (CI starts a throwaway cluster), PGlite otherwise. */
export const backendLabel = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite'

export { hasPostgres }

/**
 * Makes dataDir (absent or empty) a copy of a PGlite folder made once per run by
 * tests/support/pglite-templates.ts: `migrated` is what the embedded store leaves on its first
 * start, `empty` a database with nothing applied. Opening a copy skips PGlite's initdb, which
 * costs seconds a database; the tests of a first start itself begin from an empty folder instead.
 */
export function seedPgliteFolder(dataDir: string, template: 'empty' | 'migrated' = 'migrated') {
  fs.cpSync(inject('pgliteTemplates')[template], dataDir, { recursive: true })
}

/**
 * A database of its own for one test file: a new, randomly named database on the DATABASE_URL
 * server (dropped by close()), or a PGlite on a copy of the empty template (removed by close()).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-test-db-'))
    seedPgliteFolder(dataDir, 'empty')
    const db = await openPglite(dataDir)
    return {
      db,
      url: undefined,
      label: 'PGlite',
      close: async () => {
        await db.close()
        fs.rmSync(dataDir, { recursive: true, force: true })
      },
    }
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

/**
 * Inserts a composed lead's dados_cliente row as the site does: as the anon role, every column it
 * carries (objects as JSON). The row's trigger then queues its deliveries and credits its visit.
 */
export async function insertLeadRow(db: Database, row: object): Promise<void> {
  const columns = Object.keys(row)
  await queryAsAnon(
    db,
    `insert into public.dados_cliente (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row).map((value) =>
      value !== null && typeof value === 'object' ? JSON.stringify(value) : value,
    ),
  )
}

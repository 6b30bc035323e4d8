import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { TestProject } from 'vitest/node'

import { randomBytes } from 'node:crypto'

import { applyMigrations, openPglite } from '../../lib/leads/db.mjs'
import { openPostgres } from '../../lib/leads/postgres.mjs'

// vitest globalSetup: PGlite's initdb costs seconds of WebAssembly per database (about ten times
// opening a folder that has one), so it runs once per `vitest run`, here, and each test that wants
// an embedded store copies one of these folders (tests/integration/helpers/database.ts) instead.
// `empty` is initdb only (for the tests that migrate themselves), `migrated` has every migration of
// supabase/migrations applied, as the embedded store leaves a folder on its first start.

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplates: { empty: string; migrated: string }
  }
}

export default async function setup(project: TestProject) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-pglite-templates-'))
  const empty = path.join(root, 'empty')
  const migrated = path.join(root, 'migrated')
  const db = await openPglite(empty)
  await db.close()
  fs.cpSync(empty, migrated, { recursive: true })
  const again = await openPglite(migrated)
  try {
    await applyMigrations(again)
  } finally {
    await again.close()
  }
  await createClusterRoles()
  project.provide('pgliteTemplates', { empty, migrated })
  return () => fs.rmSync(root, { recursive: true, force: true })
}

/**
 * The migrations create cluster-wide roles (anon, lead_courier, analytics_*) when missing. Files
 * run on two workers, each migrating a database of its own on the DATABASE_URL cluster: on a
 * fresh cluster two such checks at once race, and the second `create role` fails. Migrating one
 * throwaway database here first leaves the roles there before any file starts.
 */
async function createClusterRoles() {
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) return
  const name = `lead_roles_${randomBytes(6).toString('hex')}`
  const admin = await openPostgres(adminUrl)
  try {
    await admin.exec(`create database ${name}`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    const db = await openPostgres(url.toString())
    try {
      await applyMigrations(db)
    } finally {
      await db.close()
      await admin.exec(`drop database if exists ${name} with (force)`)
    }
  } finally {
    await admin.close()
  }
}

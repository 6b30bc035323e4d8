import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { TestProject } from 'vitest/node'

import { applyMigrations, openPglite } from '../../lib/leads/db.mjs'

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
  project.provide('pgliteTemplates', { empty, migrated })
  return () => fs.rmSync(root, { recursive: true, force: true })
}

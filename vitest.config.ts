import fs from 'node:fs'
import path from 'node:path'

import { defineConfig } from 'vitest/config'

// The tests' temporary folders (os.tmpdir()) in memory when the machine has a tmpfs: the embedded
// stores are 39 MB and 1,050 files a copy, copied per test and per script call, and PGlite's
// fsyncs cost nothing there. Four PGlite files took 81 s instead of 114 s back to back on the
// loaded 2-core machine (issue 50). One folder per run, inherited by the workers and the
// processes they spawn, removed when vitest exits; TMPDIR set by the caller wins.
if (!process.env.TMPDIR && fs.existsSync('/dev/shm')) {
  try {
    const runTmp = fs.mkdtempSync('/dev/shm/vigia-vitest-')
    process.env.TMPDIR = runTmp
    process.on('exit', () => fs.rmSync(runTmp, { recursive: true, force: true }))
  } catch {
    // Not writable: the system's temporary folder, as before.
  }
}

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(__dirname),
      // `server-only` throws outside React's server bundle; in tests every module is "server".
      'server-only': path.resolve(__dirname, 'tests/support/empty-module.ts'),
    },
  },
  test: {
    exclude: ['node_modules/**', 'tests/e2e/**', '.next*/**', '.bench-floor/**'],
    environment: 'node',
    env: {
      // styled-components (under Sanity UI) outside production appends each rule as text to one
      // <style>, and jsdom re-parses the whole sheet at every append: 60% of the Studio tool's
      // tests went there (CPU profile, issue 50). Production's insertRule is parsed once per rule.
      SC_DISABLE_SPEEDY: 'false',
    },
    // vitest's default is one worker fewer than the cores: one on the 2-core machines this runs
    // on, where half the time is spent waiting on spawned servers, sockets and timers. Two halve
    // the step (issue 50); the files share nothing but the PostgreSQL cluster, whose roles
    // tests/support/pglite-templates.ts creates before they start.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.{ts,tsx}'],
          // One initdb per run for every embedded store the tests open
          // (tests/support/pglite-templates.ts); vitest runs it only when a file of this
          // project is selected, so a unit file alone does not wait for it.
          globalSetup: ['tests/support/pglite-templates.ts'],
        },
      },
    ],
  },
})

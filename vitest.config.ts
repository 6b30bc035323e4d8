import path from 'node:path'

import { defineConfig } from 'vitest/config'

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

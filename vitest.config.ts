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
    include: ['**/*.test.{ts,tsx}'],
    exclude: ['node_modules/**', 'tests/e2e/**', '.next*/**', '.bench-floor/**'],
    environment: 'node',
    // One initdb per run for every embedded store the tests open (tests/support/pglite-templates.ts).
    globalSetup: ['tests/support/pglite-templates.ts'],
  },
})

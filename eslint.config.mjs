import { defineConfig, globalIgnores } from 'eslint/config'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    // The site links between its pages with plain <a> on purpose: each page is static HTML and a
    // full load costs no client router code. The rule also reads every top-level path as the
    // legal pages' app/[slug] route (flagging even /api/... links), so it only misfires here.
    rules: { '@next/next/no-html-link-for-pages': 'off' },
  },
  globalIgnores([
    '.next/**',
    '.next-*/**',
    'out/**',
    'build/**',
    'next-env.d.ts',
    'sanity/types.ts',
    'test-results/**',
    'playwright-report/**',
    '.data/**',
    '.bench/**',
    '.bench-floor/**',
  ]),
])

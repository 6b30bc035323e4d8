import { globSync, readFileSync } from 'node:fs'
import path from 'node:path'

import { defineConfig, globalIgnores } from 'eslint/config'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

// Layers (issue 50). Browser-only modules (window, document, sessionStorage) are never imported by
// server code; what both sides need lives in a module without browser code, such as
// lib/attribution-fields.ts. lib/analytics reads the leads' database, so lib/leads never imports
// lib/analytics back. In flat config a later block replaces an earlier rule's options, so the
// leads block repeats the browser list.
const BROWSER_ONLY_FILES = [
  'lib/attribution.ts',
  'lib/analytics/beacon.ts',
  'lib/roi/handoff.ts',
  'lib/turnstile-client.ts',
]
const browserOnly = {
  // By file name, so that a relative import ('./beacon') is caught too.
  group: BROWSER_ONLY_FILES.map((file) => `**/${path.basename(file, '.ts')}`),
  message:
    'Browser-only (window, document, sessionStorage): move what the server needs to a module without browser code.',
}
// A component is a server component unless it says 'use client' (the directive is the marker), so
// the layer rule covers every other file of components/.
const CLIENT_COMPONENTS = globSync('components/**/*.tsx').filter((file) =>
  /^\s*['"]use client['"]/.test(readFileSync(file, 'utf8')),
)
const analyticsFromLeads = {
  group: ['**/analytics', '**/analytics/**'],
  message:
    'lib/analytics imports lib/leads (the shared database): a shared piece goes to a module both import, such as lib/attribution-fields.ts.',
}

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    // The site links between its pages with plain <a> on purpose: each page is static HTML and a
    // full load costs no client router code. The rule also reads every top-level path as the
    // legal pages' app/[slug] route (flagging even /api/... links), so it only misfires here.
    rules: { '@next/next/no-html-link-for-pages': 'off' },
  },
  {
    files: ['lib/**', 'app/**', 'proxy.ts', 'instrumentation.ts'],
    ignores: BROWSER_ONLY_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [browserOnly] }] },
  },
  {
    files: ['components/**'],
    ignores: CLIENT_COMPONENTS,
    rules: {
      'no-restricted-imports': ['error', { patterns: [browserOnly] }],
      'no-restricted-globals': ['error', 'window', 'document', 'sessionStorage', 'localStorage'],
    },
  },
  {
    // A lib module with browser code is browser-only, so it must be listed above (app/ has client
    // components of its own, marked 'use client').
    files: ['lib/**'],
    ignores: BROWSER_ONLY_FILES,
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'sessionStorage', 'localStorage'],
    },
  },
  {
    files: ['lib/leads/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [browserOnly, analyticsFromLeads] }] },
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

#!/usr/bin/env node
// A one-line patch to Next's app-page server runtime, applied on `npm install` (postinstall).
//
// With `experimental.inlineCss` (next.config.ts), Next writes the stylesheet into every page three
// times under Turbopack: the <style> the browser uses, its copy in the RSC payload, and a third
// copy as the styles of Next's built-in global-error boundary, which imports no CSS at all.
// Upstream: vercel/next.js#98110 (issue), #98243 and #98241 (fixes, open as of Next 16.4.6). This
// applies #98243's change: no styles for the built-in global-error (a custom app/global-error.tsx
// keeps its own). It is checked by tests/e2e/page-weight.spec.ts (two copies of the stylesheet in
// the served page, no more).
//
// It drops out by itself: when an upgraded Next no longer contains the unpatched code, this prints
// a notice and changes nothing; delete this file and the postinstall entry then.

import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)

const UNPATCHED = 'injectedCSS:new Set,injectedJS:new Set});return{GlobalError:a,styles:i}'
const PATCHED =
  'injectedCSS:new Set,injectedJS:new Set});return{GlobalError:a,styles:r[1].endsWith("next/dist/client/components/builtin/global-error.js")?null:i}'

let runtimeDir
try {
  runtimeDir = path.join(
    path.dirname(require.resolve('next/package.json')),
    'dist',
    'compiled',
    'next-server',
  )
} catch {
  // No next installed (yet): nothing to patch.
  process.exit(0)
}

const runtimes = readdirSync(runtimeDir).filter((name) =>
  /^app-page.*\.runtime\.prod\.js$/.test(name),
)
let patched = 0
let already = 0
for (const name of runtimes) {
  const file = path.join(runtimeDir, name)
  const source = readFileSync(file, 'utf8')
  if (source.includes(PATCHED)) {
    already += 1
    continue
  }
  const count = source.split(UNPATCHED).length - 1
  if (count !== 1) continue
  // A new file renamed over the old one: never write through a hard link into another checkout's
  // node_modules (or npm's cache).
  const temporary = `${file}.vigia-patch`
  writeFileSync(temporary, source.replace(UNPATCHED, PATCHED))
  renameSync(temporary, file)
  patched += 1
}

if (patched + already === 0) {
  console.warn(
    '[patch-next] Next no longer contains the code this patch changes (global-error styles); ' +
      'if the stylesheet now appears twice in the served page, the upstream fix has landed: ' +
      'remove scripts/patch-next.mjs and its postinstall entry.',
  )
} else if (patched > 0) {
  console.log(
    `[patch-next] built-in global-error without the inlined stylesheet (${patched} runtimes)`,
  )
}

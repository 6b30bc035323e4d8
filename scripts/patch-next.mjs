#!/usr/bin/env node
// Two small patches to Next's app-page server runtimes, applied on `npm install` (postinstall),
// both about `experimental.inlineCss`: no stylesheet for the built-in global-error, and no copy of
// the inlined stylesheet in the inline RSC payload. Each drops out by itself (a notice, no change)
// when an upgraded Next lacks the code it edits. Why, upstream issues, and what to do on an
// upgrade: docs/upgrading-next.md, "The patches".

import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'

const require = createRequire(import.meta.url)

/** @type {{ name: string, gone: string, edits: [string, string][], prelude?: string }[]} */
export const PATCHES = [
  {
    name: 'built-in global-error without the inlined stylesheet',
    gone: 'the stylesheet may be in the served page twice again',
    edits: [
      [
        'injectedCSS:new Set,injectedJS:new Set});return{GlobalError:a,styles:i}',
        'injectedCSS:new Set,injectedJS:new Set});return{GlobalError:a,styles:r[1].endsWith("next/dist/client/components/builtin/global-error.js")?null:i}',
      ],
    ],
  },
  {
    name: 'no copy of the inlined stylesheet in the inline RSC payload',
    gone: 'the inline RSC payload may carry the stylesheet again',
    edits: [
      // renderCssResource: remember the text of each stylesheet it inlines.
      [
        's.inlined&&!t.parsedRequestHeaders.isRSCRequest?a.push(n("style",{key:i,nonce:t.nonce,precedence:e,href:o},s.content))',
        's.inlined&&!t.parsedRequestHeaders.isRSCRequest?((globalThis.__vigiaInlinedCss||=new Set).add(s.content),a.push(n("style",{key:i,nonce:t.nonce,precedence:e,href:o},s.content)))',
      ],
      // The two writers of the inline scripts (web and Node streams): empty the text row that
      // carries one of them.
      [
        'function f(e,t,r){let a;if("string"==typeof r)a=(0,n.ui)(JSON.stringify([1,r]));',
        'function f(e,t,r){let a;if("string"==typeof r)a=(0,n.ui)(JSON.stringify([1,__vigiaWithoutInlinedCss(r)]));',
      ],
      [
        'let t=n.toString("utf-8");e=(0,d.ui)(JSON.stringify([1,t]))',
        'let t=__vigiaWithoutInlinedCss(n.toString("utf-8"));e=(0,d.ui)(JSON.stringify([1,t]))',
      ],
    ],
    // Prepended to the runtime, once: `T<hex length>,<text>` is how React Flight writes a long
    // string; a row split across two chunks keeps its copy (tests/e2e/page-weight.spec.ts fails).
    prelude: `function __vigiaWithoutInlinedCss(text) {
  for (const css of globalThis.__vigiaInlinedCss || []) {
    const at = text.indexOf(css)
    const header = at > 0 ? text.lastIndexOf(':T', at) : -1
    if (header >= 0 && /^:T[0-9a-f]+,$/.test(text.slice(header, at))) {
      text = text.slice(0, header) + ':T0,' + text.slice(at + css.length)
    }
  }
  return text
}
`,
  },
]

/** Applies every patch to the installed Next's app-page runtimes. */
function patchNext() {
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
    return
  }

  const runtimes = readdirSync(runtimeDir).filter((name) =>
    /^app-page.*\.runtime\.prod\.js$/.test(name),
  )
  const sources = new Map(
    runtimes.map((name) => [name, readFileSync(path.join(runtimeDir, name), 'utf8')]),
  )

  for (const patch of PATCHES) {
    let patched = 0
    let already = 0
    for (const [name, source] of sources) {
      if (patch.edits.every(([, after]) => source.includes(after))) {
        already += 1
        continue
      }
      // All of a patch's edits or none: half of one would leave a runtime that loses the styles.
      if (!patch.edits.every(([before]) => source.split(before).length === 2)) continue
      const result =
        (patch.prelude ?? '') +
        patch.edits.reduce((text, [before, after]) => text.replace(before, after), source)
      // Compiled (not run) as the CommonJS module it is: a patch that no longer fits leaves the
      // runtime as it was rather than breaking every page.
      try {
        new vm.Script(`(function (exports, require, module, __filename, __dirname) {${result}\n})`)
      } catch (error) {
        console.warn(`[patch-next] "${patch.name}" would break ${name} (${error}); left unpatched.`)
        continue
      }
      sources.set(name, result)
      patched += 1
    }
    if (patched + already === 0) {
      console.warn(
        `[patch-next] Next no longer contains the code of "${patch.name}"; ${patch.gone}. ` +
          'If it does, check whether upstream fixed it, and remove that entry from scripts/patch-next.mjs.',
      )
    } else if (patched > 0) {
      console.log(`[patch-next] ${patch.name} (${patched} runtimes)`)
    }
  }

  for (const [name, source] of sources) {
    const file = path.join(runtimeDir, name)
    if (readFileSync(file, 'utf8') === source) continue
    // A new file renamed over the old one: never write through a hard link into another checkout's
    // node_modules (or npm's cache).
    const temporary = `${file}.vigia-patch`
    writeFileSync(temporary, source)
    renameSync(temporary, file)
  }
}

// Run as `node scripts/patch-next.mjs` (postinstall); imported by tests/unit/patch-next.test.ts.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) patchNext()

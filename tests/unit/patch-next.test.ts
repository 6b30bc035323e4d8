// The inline-payload patch of scripts/patch-next.mjs rewrites Flight text that React hydrates
// from, so what it removes, and what it must leave alone, is pinned here. The served page is
// checked end to end in tests/e2e/page-weight.spec.ts.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { PATCHES } from '../../scripts/patch-next.mjs'

const require = createRequire(import.meta.url)

const payloadPatch = PATCHES.find((patch) => patch.prelude)
const CSS = '.a{color:red}.b::after{content:"é"}'

function withoutInlinedCss(text: string, inlined: string[] = [CSS]): string {
  const scope = { __vigiaInlinedCss: new Set(inlined) }
  // The prelude reads globalThis.__vigiaInlinedCss; give it its own.
  const strip = new Function(
    'globalThis',
    `${payloadPatch?.prelude ?? ''}\nreturn __vigiaWithoutInlinedCss`,
  )(scope) as (text: string) => string
  return strip(text)
}

const hexBytes = (text: string) => Buffer.byteLength(text).toString(16)

describe('scripts/patch-next.mjs, inline payload', () => {
  it('empties the text row that carries an inlined stylesheet, and nothing else', () => {
    const before = `0:["$","html",null,{}]\n2:T${hexBytes(CSS)},${CSS}3:["$","style",null,{"children":"$2"}]\n`
    expect(withoutInlinedCss(before)).toBe(
      '0:["$","html",null,{}]\n2:T0,3:["$","style",null,{"children":"$2"}]\n',
    )
  })

  it('leaves the same text alone when it is not a text row of its own', () => {
    const inProps = `4:["$","p",null,{"children":${JSON.stringify(CSS)}}]\n`
    expect(withoutInlinedCss(inProps)).toBe(inProps)
    const otherRow = `5:T40,prefix ${CSS}`
    expect(withoutInlinedCss(otherRow)).toBe(otherRow)
  })

  it('keeps a row whose header came in an earlier chunk', () => {
    expect(withoutInlinedCss(`${CSS}6:["$","div",null,{}]\n`)).toBe(`${CSS}6:["$","div",null,{}]\n`)
  })

  it('changes nothing when no stylesheet was inlined', () => {
    const text = `2:T${hexBytes(CSS)},${CSS}`
    expect(withoutInlinedCss(text, [])).toBe(text)
  })

  it('has been applied to every app-page runtime of the installed Next (postinstall)', () => {
    const dir = path.join(
      path.dirname(require.resolve('next/package.json')),
      'dist/compiled/next-server',
    )
    const runtimes = readdirSync(dir).filter((name) => /^app-page.*\.runtime\.prod\.js$/.test(name))
    expect(runtimes.length).toBeGreaterThan(0)
    for (const name of runtimes) {
      const source = readFileSync(path.join(dir, name), 'utf8')
      for (const patch of PATCHES) {
        for (const [, after] of patch.edits)
          expect(source, `${name}: ${patch.name}`).toContain(after)
      }
    }
  })
})

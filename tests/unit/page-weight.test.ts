// The page-weight figures (scripts/lib/page-weight.mjs) judge the page, not how Next's stream was
// cut: a page the build prerendered and the same page a server regenerated weigh the same.
import { describe, expect, it } from 'vitest'

import { pageWeight } from '../../scripts/lib/page-weight.mjs'

const CSS = '.a{color:red}.b>.c{margin:0}'
const FLIGHT = `0:{"tree":["<p>Olá & até já</p>"]}\n1:"${CSS}"\n2:{"css":"${CSS}"}\n`

/** The same page with its payload pushed in `pieces` scripts, as Next streams it. */
function page(pieces: number) {
  const size = Math.ceil(FLIGHT.length / pieces)
  const pushes = Array.from({ length: pieces }, (_, i) =>
    FLIGHT.slice(i * size, (i + 1) * size),
  ).map(
    (text) =>
      `<script>self.__next_f.push(${JSON.stringify([1, text]).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)})</script>`,
  )
  return (
    `<!DOCTYPE html><html><head><style data-precedence="next" data-href="a.css">${CSS}</style>` +
    '<script src="/_next/static/chunks/a.js" async=""></script></head><body><main><p>Olá</p>' +
    '<!-- a comment <b> --></main><script>(self.__next_f=self.__next_f||[]).push([0])</script>' +
    `${pushes.join('')}</body></html>`
  )
}

describe('pageWeight', () => {
  it('weighs a payload streamed in two pieces and in seven alike, but for the HTML’s bytes', () => {
    const prerendered = pageWeight(page(2))
    const regenerated = pageWeight(page(7))
    expect(regenerated.htmlBytes).toBeGreaterThan(prerendered.htmlBytes)
    expect({ ...regenerated, htmlBytes: 0 }).toEqual({ ...prerendered, htmlBytes: 0 })
  })

  it('counts the elements the parser builds, not the payload’s scripts', () => {
    // html, head, style, script (a.js), body, main, p, script (the bootstrap push).
    expect(pageWeight(page(3)).elements).toBe(8)
  })

  it('finds the stylesheet’s copies in the payload and leaves them out of its weight', () => {
    const weight = pageWeight(page(4))
    expect(weight.stylesheetBytes).toBe(CSS.length)
    expect(weight.stylesheetCopies).toBe(2)
    // As the scripts carry it: JSON, with <, > and & as \uXXXX (the stylesheet's `>` included).
    const escaped = (text: string) =>
      Buffer.byteLength(
        JSON.stringify(text)
          .slice(1, -1)
          .replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
      )
    expect(weight.rscPayloadBytes).toBe(escaped(FLIGHT) - 2 * escaped(CSS))
  })
})

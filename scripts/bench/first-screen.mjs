// The bench's control (issue 53, docs/speed.md): the home page served with nothing but what it
// lays out at load, its head and its markup up to the first lazy block, without a script. Measured
// beside the floor and the page, it says how much of the page's style and layout is the first
// screen's own design, which no change below the fold or in the scripts can take away. The bench
// serves it through its HTTPS proxy (h2-proxy.mjs, `transformHtml`).

/** Its Lighthouse page name, and the page (an id of PAGES, budgets.mjs) it is cut from. */
export const FIRST_SCREEN_CONTROL = Object.freeze({ name: 'first-screen', of: 'home' })

/**
 * The class of the blocks that render only near the viewport: LAZY_BLOCK of
 * components/render-all.tsx (tests/unit/bench-first-screen.test.ts holds the two equal).
 */
export const LAZY_BLOCK_CLASS = 'render-when-visible'

const FIRST_LAZY_BLOCK = new RegExp(
  `<[a-z][^>]*\\sclass="(?:[^"]*\\s)?${LAZY_BLOCK_CLASS}(?:\\s[^"]*)?"[^>]*>`,
)
const SCRIPTS = /<script\b[^>]*>[\s\S]*?<\/script>/g
const SCRIPT_PRELOADS = /<link\b[^>]*(?:\sas="script"|\srel="modulepreload")[^>]*>/g

/**
 * A page's HTML cut before its first lazy block, without scripts or their preloads. The parser
 * closes the elements left open, as it does at the end of any document.
 * @param {string} html
 */
export function firstScreenOnly(html) {
  const lazy = FIRST_LAZY_BLOCK.exec(html)
  const cut = lazy ? html.slice(0, lazy.index) : html
  return cut.replace(SCRIPTS, '').replace(SCRIPT_PRELOADS, '')
}

// The bench's controls (issues 53 and 67, docs/speed.md): each page kind served with nothing but
// what it lays out at load, its head and its markup up to its first lazy block, without a script.
// Measured beside the page, a control says what the page's first screen costs by its own design;
// the page is judged against it (budgets.mjs): what the page spends beyond it is below the fold or
// in its scripts. The bench serves it through its HTTPS proxy (h2-proxy.mjs, `transformHtml`), from
// the same build as the page.

/**
 * The Lighthouse name of a measured page's control: a page id of PAGES (budgets.mjs) or a
 * --variant's name, with the same path and headers.
 * @param {string} name
 */
export const controlName = (name) => `${name}.control`

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
 * Whether a page has a lazy block to cut its control before; without one, its control is the
 * whole page without scripts.
 * @param {string} html
 */
export function hasLazyBlock(html) {
  return FIRST_LAZY_BLOCK.test(html)
}

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

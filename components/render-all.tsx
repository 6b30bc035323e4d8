'use client'

// Blocks below the fold render lazily (`render-when-visible`, app/globals.css), except once the
// URL names an anchor or the keyboard moves focus: smooth scrolling aims at where its target is
// when the scroll starts, and blocks rendering on the way would move it. This script marks <html>
// then. It replaces `:root:has(:target, :focus-visible)`, which Chrome re-checked on every element
// the parser inserted: on the home page a restyle of every lazy block per chunk of HTML, about a
// dozen while it loads (issue 53, docs/speed.md). A client component, so the script is in the HTML
// only, not again in the RSC payload.

/** The class of the blocks that render when near the viewport (app/globals.css). */
export const LAZY_BLOCK = 'render-when-visible'
/** Set on <html> once every lazy block must render (app/globals.css). */
export const RENDER_ALL_ATTRIBUTE = 'data-render-all'

declare global {
  interface Window {
    /** Set by RENDER_ALL_SCRIPT: `on` renders every lazy block. */
    vigiaRenderAll?: { on: () => void }
  }
}

/**
 * Sets RENDER_ALL_ATTRIBUTE on <html> (globals.css then renders every lazy block) on an anchor in the
 * URL, a link to an anchor, the Tab key, focus that shows a ring, or printing, before the browser
 * measures where to scroll.
 */
export const RENDER_ALL_SCRIPT =
  `(function(w,d,r,k){var on=(w.vigiaRenderAll={on:()=>r.setAttribute(k,'')}).on,` +
  `L=(e,f,t,b)=>(t||d).addEventListener(e,f,!b);location.hash&&on();L('hashchange',on,w);L('beforeprint',on,w);` +
  `L('keydown',e=>e.key=='Tab'&&on());L('focusin',e=>e.target.matches?.(':focus-visible')&&on());` +
  // Bubbling, so a link whose click the page cancels (no scroll follows) leaves the blocks lazy.
  `L('click',e=>e.defaultPrevented||e.target.closest?.('a[href*="#"]')&&on(),d,1)})` +
  `(window,document,document.documentElement,'${RENDER_ALL_ATTRIBUTE}')`

/** For a scroll the page starts itself (lib/roi/handoff.ts): every lazy block renders first. */
export function renderAll() {
  window.vigiaRenderAll?.on()
}

/** First in <body>, before any lazy block. */
export function RenderAllScript() {
  return <script dangerouslySetInnerHTML={{ __html: RENDER_ALL_SCRIPT }} />
}

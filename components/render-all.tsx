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
    /** Set by RENDER_ALL_SCRIPT: `on` renders every lazy block, `h` runs with it, once. */
    vigiaRenderAll?: { h: (() => void)[]; on: () => void }
  }
}

/**
 * Sets RENDER_ALL_ATTRIBUTE on <html> (globals.css then renders every lazy block) on an anchor in the
 * URL, a link to an anchor, the Tab key, focus that shows a ring, or printing, and runs the
 * callbacks other scripts registered (components/park-until-near.tsx). Capturing, before the
 * browser measures where to scroll.
 */
export const RENDER_ALL_SCRIPT =
  `(function(w,d,r,k){var g=w.vigiaRenderAll={h:[]},on=g.on=()=>{r.hasAttribute(k)||(r.setAttribute(k,''),g.h.forEach(f=>f()))},` +
  `L=(e,f,t)=>(t||d).addEventListener(e,f,!0);location.hash&&on();L('hashchange',on,w);L('beforeprint',on,w);` +
  `L('keydown',e=>e.key=='Tab'&&on());L('focusin',e=>{try{e.target.matches(':focus-visible')&&on()}catch(x){}});` +
  `L('click',e=>e.target.closest?.('a[href*="#"]')&&on())})(window,document,document.documentElement,'${RENDER_ALL_ATTRIBUTE}')`

/** For a scroll the page starts itself (lib/roi/handoff.ts): every lazy block renders first. */
export function renderAll() {
  window.vigiaRenderAll?.on()
}

/**
 * First in <body>, before any lazy block. Without JavaScript the same rule as a `:has()`
 * selector, which then costs only those visitors its restyles.
 */
export function RenderAllScript() {
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: RENDER_ALL_SCRIPT }} />
      <noscript>
        <style>{`:root:has(:target,:focus-visible) .${LAZY_BLOCK}{content-visibility:visible}`}</style>
      </noscript>
    </>
  )
}

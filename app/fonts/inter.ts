import localFont from 'next/font/local'

// Inter, self-hosted (next/font/google would download at build time) and cut by
// scripts/subset-font.py to the weights and characters the page sets: 23 KB instead of 48 KB.
// Only wide screens (lg and up) name it; phones and tablets use the system UI face and never
// fetch it (app/globals.css, --font-sans).
//
// Not preloaded, on purpose: a preloaded font lands just as the browser lays out the first frame
// and makes that frame shape every line in Inter, which on a slow phone delays the headline more
// than the font is worth.
//
// `optional`, not `swap`: Inter is used when it arrives within the first ~100 ms (a repeat visit,
// a fast link), and otherwise the page keeps the metric-matched fallback faces declared in
// app/globals.css ('Inter Fallback', one per weight band) for this view. A late swap re-shaped
// every line: the headline rewrapped (3 lines in Inter, 4 in the fallback at 412 px), which moved
// the hero (CLS 0.03) and repainted the largest text after the page's scripts had run.
// https://developer.chrome.com/blog/font-display
export const inter = localFont({
  src: [{ path: './inter-latin-400-800.woff2', weight: '400 800', style: 'normal' }],
  display: 'optional',
  variable: '--font-inter',
  preload: false,
  adjustFontFallback: false,
  fallback: ['Inter Fallback'],
})

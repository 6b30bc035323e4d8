import localFont from 'next/font/local'

// Inter, self-hosted (next/font/google would download at build time) and cut by
// scripts/subset-font.py to the weights and characters the page sets: 23 KB instead of 48 KB.
//
// Not preloaded, on purpose: a preloaded font lands just as the browser lays out the first frame
// and makes that frame shape every line in Inter, which on a slow phone delays the headline more
// than the swap costs. The headline paints at once in the metric-matched fallback faces declared
// in app/globals.css ('Inter Fallback', one per weight band, measured on the site's own copy) and
// Inter swaps in without moving anything.
export const inter = localFont({
  src: [{ path: './inter-latin-400-800.woff2', weight: '400 800', style: 'normal' }],
  display: 'swap',
  variable: '--font-inter',
  preload: false,
  adjustFontFallback: false,
  fallback: ['Inter Fallback'],
})

import localFont from 'next/font/local'

// Inter, self-hosted and cut to what the page sets (scripts/subset-font.py), for lg screens and up
// only: phones use the system face (app/globals.css). Not preloaded and `optional`, not `swap`: a
// late font delayed or rewrapped the headline on slow phones (docs/speed.md).
// https://developer.chrome.com/blog/font-display
export const inter = localFont({
  src: [{ path: './inter-latin-400-800.woff2', weight: '400 800', style: 'normal' }],
  display: 'optional',
  variable: '--font-inter',
  preload: false,
  adjustFontFallback: false,
  fallback: ['Inter Fallback'],
})

import localFont from 'next/font/local'

// Self-hosted from @fontsource-variable/inter: next/font/google would download at build time.
// next/font/local adds a size-adjusted Arial fallback, so the swap causes no layout shift.
export const inter = localFont({
  src: [
    {
      path: '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
      weight: '100 900',
      style: 'normal',
    },
  ],
  display: 'swap',
  variable: '--font-inter',
  preload: true,
})

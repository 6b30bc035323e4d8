import path from 'node:path'

import type { NextConfig } from 'next'

const isProduction = process.env.NODE_ENV === 'production'

// Where the browser may talk to Sanity: the Studio (and the draft-mode overlay) call the Content
// Lake from the browser; the public page never does.
const sanityOrigins = [
  'https://*.api.sanity.io',
  'wss://*.api.sanity.io',
  'https://api.sanity.io',
  'https://cdn.sanity.io',
  ...(process.env.SANITY_API_HOST ? [process.env.SANITY_API_HOST] : []),
]

/**
 * Where the page's Content Lake images come from (components/content-image.tsx builds their URLs
 * on it): Sanity's image CDN, or SANITY_IMAGE_HOST in its place. Only when a project is
 * configured: on the bundled dataset every image is our own file.
 */
function imageOrigin(value = 'https://cdn.sanity.io'): string {
  try {
    return new URL(value).origin
  } catch {
    throw new Error(`SANITY_IMAGE_HOST="${value}" is not an http(s) URL.`)
  }
}
const contentImageOrigin = process.env.NEXT_PUBLIC_SANITY_PROJECT_ID?.trim()
  ? imageOrigin(process.env.SANITY_IMAGE_HOST?.trim() || undefined)
  : undefined

/**
 * Cloudflare Turnstile's origin, only when the form uses it (TURNSTILE_SITE_KEY, checked with its
 * secret in lib/env.ts): its script and its frame come from there.
 * https://developers.cloudflare.com/turnstile/reference/content-security-policy/
 */
const turnstileOrigin = process.env.TURNSTILE_SITE_KEY?.trim()
  ? ' https://challenges.cloudflare.com'
  : ''

/**
 * The public pages are prerendered and served from the ISR cache, so the HTML is the same for
 * every visitor and cannot carry a per-request nonce or hash list that Next would compute; its
 * inline bootstrap scripts (the RSC payload) therefore need 'unsafe-inline'. Everything else is
 * as tight as the page allows: only our own origin for scripts, styles, fonts, images (plus the
 * one image host above when content comes from Sanity) and fetches
 * (the Server Action posts to the same origin), no plugins, no <base> hijacking, forms post only
 * to us, and no framing (clickjacking). https://nextjs.org/docs/app/guides/content-security-policy
 */
const siteCsp = [
  "default-src 'self'",
  // React's development build evaluates code to rebuild server call stacks; production never does.
  `script-src 'self' 'unsafe-inline'${isProduction ? '' : " 'unsafe-eval'"}${turnstileOrigin}`,
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob:${contentImageOrigin ? ` ${contentImageOrigin}` : ''}`,
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  turnstileOrigin ? `frame-src${turnstileOrigin}` : "frame-src 'none'",
  "manifest-src 'self'",
  "worker-src 'self'",
].join('; ')

/**
 * Sanity Studio is a large client app: it evaluates code (eval for its schema and Vision's
 * editor), loads images from Sanity's CDN, talks to the Content Lake over HTTPS and WebSockets,
 * and frames the site itself in the Presentation tool.
 */
const studioCsp = [
  "default-src 'self'",
  // core.sanity-cdn.com serves the Studio's bridge script (auto-updates and the Dashboard).
  "script-src 'self' 'unsafe-inline' 'unsafe-eval' https://core.sanity-cdn.com",
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: https://cdn.sanity.io https://*.sanity.io`,
  "font-src 'self' data:",
  // sanity-cdn.com answers the Studio's check for a newer version of itself (its module CDN);
  // blocked, every load logged a CSP error in the console (issue 52). The Studio's route only.
  `connect-src 'self' ${sanityOrigins.join(' ')} https://sanity-cdn.com`,
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "worker-src 'self' blob:",
].join('; ')

const commonHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
  ...(isProduction
    ? [{ key: 'Strict-Transport-Security', value: 'max-age=31536000; includeSubDomains' }]
    : []),
]

const nextConfig: NextConfig = {
  poweredByHeader: false,
  experimental: {
    // The stylesheet goes into the page as a <style>, not a render-blocking <link>: on a phone
    // with a weak signal the <link> shared the slow link with a dozen script chunks and the
    // headline waited about a second for it (docs/speed.md). Next also copies its text twice
    // into the inline RSC payload, unread; we patch nothing to remove them (docs/upgrading-next.md).
    // https://nextjs.org/docs/app/api-reference/config/next-config-js/inlineCss
    inlineCss: true,
    // A clean CI checkout never reads the build cache back, and writing it took over a minute of
    // each test build there.
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  // Widths next/image offers for the bundled images (Content Lake images get Sanity's CDN URLs
  // instead): the bundled visuals are at most 1200 px wide, and each wider candidate only repeated
  // the 1200 one in the HTML and again in the RSC payload (hero and its preload: twice each).
  // https://nextjs.org/docs/app/api-reference/components/image#devicesizes
  images: { deviceSizes: [640, 750, 828, 1080, 1200] },
  // `npm run typecheck` checks the whole repo (tests included) as its own CI step; checking again
  // inside every `next build` (the test suite builds twice) would only cost minutes on 2 cores.
  typescript: { ignoreBuildErrors: true },
  // PGlite finds its WebAssembly and data files relative to its own module URL, which bundling
  // breaks; load it from node_modules at run time instead.
  serverExternalPackages: ['@electric-sql/pglite'],
  // Tests build a second copy pointed at a Content Lake double; keep it out of .next.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // A self-contained server (`node <distDir>/standalone/server.js`) for deploying without the
  // whole node_modules; see docs/deploying.md. `next start` keeps working for the tests.
  output: 'standalone',
  // ISR pages and fetch() results: on disk per instance, or in Redis when REDIS_URL is set at
  // run time (lib/cache/cache-handler.mjs decides when the server starts).
  cacheHandler: path.resolve('lib/cache/cache-handler.mjs'),
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [...commonHeaders, { key: 'Content-Security-Policy', value: siteCsp }],
      },
      // Editors in draft mode see the site inside the Studio's Presentation tool (same origin).
      {
        source: '/:path*',
        has: [{ type: 'cookie', key: '__prerender_bypass' }],
        headers: [
          {
            key: 'Content-Security-Policy',
            value: siteCsp
              .replace("frame-ancestors 'none'", "frame-ancestors 'self'")
              .replace("connect-src 'self'", `connect-src 'self' ${sanityOrigins.join(' ')}`),
          },
        ],
      },
      // Later entries override earlier ones for the same header key.
      {
        source: '/studio/:path*',
        headers: [{ key: 'Content-Security-Policy', value: studioCsp }],
      },
      // Review links (app/revisao/[token]): never indexed, and the token in the address is never
      // sent on as a Referer, even to this site.
      {
        source: '/revisao/:path*',
        headers: [
          { key: 'X-Robots-Tag', value: 'noindex, nofollow' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
        ],
      },
    ]
  },
}

export default nextConfig

import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Tests build a second copy pointed at a Content Lake double; keep it out of .next.
  distDir: process.env.NEXT_DIST_DIR || '.next',
}

export default nextConfig

import type { MetadataRoute } from 'next'

import { serverEnv } from '@/lib/env'

export default function robots(): MetadataRoute.Robots {
  return {
    rules: { userAgent: '*', allow: '/', disallow: ['/studio', '/api/'] },
    sitemap: new URL('/sitemap.xml', serverEnv.siteUrl).toString(),
  }
}

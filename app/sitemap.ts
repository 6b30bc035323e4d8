import type { MetadataRoute } from 'next'

import { getLegalPageSlugs } from '@/lib/content'
import { serverEnv } from '@/lib/env'

// Regenerated with the content; the legalPage tag (webhook) refreshes it when a page changes.
export const revalidate = 3600

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const legalPages = await getLegalPageSlugs()
  return [
    { url: new URL('/', serverEnv.siteUrl).toString(), changeFrequency: 'weekly', priority: 1 },
    ...legalPages.flatMap((page) =>
      page.slug
        ? [
            {
              url: new URL(`/${page.slug}`, serverEnv.siteUrl).toString(),
              lastModified: page.updatedAt ?? undefined,
              changeFrequency: 'yearly' as const,
              priority: 0.3,
            },
          ]
        : [],
    ),
  ]
}

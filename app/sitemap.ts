import type { MetadataRoute } from 'next'

import { getCampaignPageSlugs, getLegalPageSlugs } from '@/lib/content'
import { isVisible } from '@/lib/content/visibility'
import { expireAtNextBoundary } from '@/lib/content/visibility-cache'
import { serverEnv } from '@/lib/env'
import { campaignPath } from '@/sanity/lib/paths'

// Regenerated with the content; the legalPage and campaignPage tags (webhook) refresh it when a
// page changes, and the webhook requests it at once.
export const revalidate = 3600

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const [legalPages, campaignPages] = await Promise.all([
    getLegalPageSlugs(),
    getCampaignPageSlugs(),
  ])
  // A page outside its visibility window is in no sitemap; the sitemap is rebuilt at the next
  // start or end of any page's window (lib/content/visibility-cache.ts).
  await expireAtNextBoundary(campaignPages)
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
    // Pages marked noindex stay out: they are for paid campaigns and events, not for search.
    ...campaignPages.flatMap((page) =>
      page.slug && !page.noindex && isVisible(page)
        ? [
            {
              url: new URL(campaignPath(page.slug), serverEnv.siteUrl).toString(),
              lastModified: page._updatedAt ?? undefined,
              changeFrequency: 'monthly' as const,
              priority: 0.7,
            },
          ]
        : [],
    ),
  ]
}

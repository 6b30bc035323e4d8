import type { MetadataRoute } from 'next'

import { serverEnv } from '@/lib/env'
import { ROUTED, ROUTED_TYPE_NAMES, routedLists, routedPath } from '@/lib/routed-type-plans'

// Regenerated with the content; the routed types' list tags (webhook) refresh it when a page
// changes, and the webhook requests it at once. Every routed type's live documents
// (lib/routed-type-plans.ts): lib/content leaves out those outside their visibility window and has the
// sitemap rebuilt at the next start or end of any window.
export const revalidate = 3600

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const lists = await routedLists({ live: true })
  const url = (path: string) => new URL(path, serverEnv.siteUrl).toString()
  return [
    { url: url('/'), changeFrequency: 'weekly', priority: 1 },
    ...ROUTED_TYPE_NAMES.flatMap((name) => {
      const { sitemap } = ROUTED[name]
      return lists[name].flatMap((entry, index) =>
        // Pages marked noindex stay out: campaigns and events, not for search.
        entry.noindex
          ? []
          : [
              {
                url: url(routedPath(name, entry.slug)),
                lastModified: entry.lastModified ?? undefined,
                changeFrequency: sitemap.changeFrequency,
                priority: sitemap.priority(index),
              },
            ],
      )
    }),
  ]
}

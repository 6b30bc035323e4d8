import type { MetadataRoute } from 'next'

import {
  getArticleSlugs,
  getCampaignPageSlugs,
  getCategorySlugs,
  getLegalPageSlugs,
} from '@/lib/content'
import { isVisible } from '@/lib/content/visibility'
import { expireAtNextBoundary } from '@/lib/content/visibility-cache'
import { serverEnv } from '@/lib/env'
import {
  ARTICLES_PER_PAGE,
  articlePath,
  campaignPath,
  categoryPath,
  listingPagePath,
} from '@/sanity/lib/paths'

// Regenerated with the content; the legalPage, campaignPage, article and category tags (webhook)
// refresh it when a page changes, and the webhook requests it at once.
export const revalidate = 3600

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const [legalPages, campaignPages, allArticles, categories] = await Promise.all([
    getLegalPageSlugs(),
    getCampaignPageSlugs(),
    getArticleSlugs(),
    getCategorySlugs(),
  ])
  // A page or article outside its visibility window is in no sitemap; the sitemap is rebuilt at
  // the next start or end of any page's or article's window (lib/content/visibility-cache.ts).
  const now = Date.now()
  await expireAtNextBoundary([...campaignPages, ...allArticles], now)
  const articles = allArticles.filter((article) => isVisible(article, now))
  const url = (path: string) => new URL(path, serverEnv.siteUrl).toString()
  // Articles come newest first: a listing page changes when its newest article does.
  const lastmod = (article: (typeof articles)[number] | undefined) =>
    article ? (article._updatedAt ?? article.publishedAt ?? undefined) : undefined
  const listingPages = Math.max(1, Math.ceil(articles.length / ARTICLES_PER_PAGE))
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
    ...Array.from({ length: listingPages }, (_, index) => ({
      url: url(listingPagePath(index + 1)),
      lastModified: lastmod(articles[index * ARTICLES_PER_PAGE]),
      changeFrequency: 'weekly' as const,
      priority: index === 0 ? 0.8 : 0.4,
    })),
    ...categories.flatMap((category) =>
      category.slug
        ? [
            {
              url: url(categoryPath(category.slug)),
              lastModified: category.latest ?? category._updatedAt ?? undefined,
              changeFrequency: 'weekly' as const,
              priority: 0.5,
            },
          ]
        : [],
    ),
    // Articles marked noindex stay out, as campaign pages do.
    ...articles.flatMap((article) =>
      article.slug && !article.noindex
        ? [
            {
              url: url(articlePath(article.slug)),
              lastModified: lastmod(article),
              changeFrequency: 'monthly' as const,
              priority: 0.6,
            },
          ]
        : [],
    ),
  ]
}

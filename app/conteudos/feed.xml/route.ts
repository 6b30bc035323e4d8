import { LISTING_DESCRIPTION } from '@/components/articles/listing-view'
import { LISTING_TITLE } from '@/lib/articles/trail'
import { rssFeed } from '@/lib/articles/feed'
import { getArticleFeed, getSiteSettings } from '@/lib/content'
import { serverEnv } from '@/lib/env'
import { ARTICLES_FEED_PATH, ARTICLES_PREFIX, articlePath } from '@/sanity/lib/paths'

// RSS 2.0 with the latest 20 articles, at a stable path linked from the listing and from every
// article (<link rel="alternate">). Cached like the pages; the webhook revalidates the article
// tag and requests this path after a publish.
export const revalidate = 3600

export async function GET() {
  const [articles, settings] = await Promise.all([getArticleFeed(), getSiteSettings()])
  const origin = serverEnv.siteUrl
  const brand = settings?.brandName ?? 'Vigia'
  const xml = rssFeed({
    title: `${brand}: ${LISTING_TITLE}`,
    description: LISTING_DESCRIPTION,
    link: new URL(ARTICLES_PREFIX, origin).href,
    self: new URL(ARTICLES_FEED_PATH, origin).href,
    items: articles.flatMap((article) =>
      article.slug && article.title && article.publishedAt
        ? [
            {
              title: article.title,
              url: new URL(articlePath(article.slug), origin).href,
              description: article.description,
              publishedAt: article.publishedAt,
              author: article.author,
              categories: (article.categories ?? []).flatMap((title) => (title ? [title] : [])),
            },
          ]
        : [],
    ),
  })
  return new Response(xml, {
    headers: { 'content-type': 'application/rss+xml; charset=utf-8' },
  })
}

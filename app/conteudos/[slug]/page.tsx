import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { stegaClean } from 'next-sanity'

import { ArticleView, articleShareImagePath } from '@/components/articles/article-view'
import { visibleUpdateDate } from '@/lib/articles/dates'
import { getArticle, getSiteSettings } from '@/lib/content'
import { pageMetadata, withBrand } from '@/lib/site-metadata'
import { staticParams } from '@/lib/routed-type-plans'
import { articlePath } from '@/sanity/lib/paths'

// Articles (article documents). The newest ones published at build time are prerendered
// (lib/routed-type-plans.ts); any other is rendered on its first request and cached like them
// (dynamicParams), and the
// webhook revalidates the article tag and requests the page, so it is live within seconds with
// no deploy. A slug with no published article answers 404 (drafts only in draft mode, at
// /preview/conteudos/<slug>); redirects from old slugs are answered before this route (proxy.ts).
export const revalidate = 3600
export const dynamicParams = true

type Props = { params: Promise<{ slug: string }> }

export function generateStaticParams() {
  return staticParams('article', 'slug')
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params
  const [article, settings] = await Promise.all([getArticle(slug), getSiteSettings()])
  if (!article?.title) return {}
  const published = article.publishedAt ? stegaClean(article.publishedAt) : undefined
  return pageMetadata({
    path: articlePath(slug),
    title: article.seo?.title ?? withBrand(article.title, settings),
    description: article.seo?.description ?? article.description,
    settings,
    type: 'article',
    noindex: article.seo?.noindex ?? false,
    twitterImage: articleShareImagePath(slug),
    feed: true,
    article: {
      publishedTime: published,
      modifiedTime: visibleUpdateDate(published, article._updatedAt) ?? published,
      authors: article.author?.name ? [stegaClean(article.author.name)] : undefined,
      section: article.categories?.[0]?.title ? stegaClean(article.categories[0].title) : undefined,
    },
  })
}

export default async function ArticleRoute({ params }: Props) {
  const { slug } = await params
  const [article, settings] = await Promise.all([getArticle(slug), getSiteSettings()])
  if (!article) notFound()
  return <ArticleView article={article} settings={settings} />
}

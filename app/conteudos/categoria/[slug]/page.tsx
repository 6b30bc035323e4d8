import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { ArticleGrid } from '@/components/articles/article-card'
import { ArticlesShell } from '@/components/articles/articles-shell'
import { Breadcrumbs } from '@/components/articles/breadcrumbs'
import { articlesTrail } from '@/lib/articles/trail'
import { getCategory, getSiteSettings } from '@/lib/content'
import { pageMetadata, withBrand } from '@/lib/site-metadata'
import { categoryPath } from '@/sanity/lib/paths'
import { staticParams } from '@/lib/routed-type-plans'

// A category's page: its description and its articles, newest first. Revalidated by the article
// and category tags (app/api/revalidate requests it after a publish).
export const revalidate = 3600
export const dynamicParams = true

type Props = { params: Promise<{ slug: string }> }

export function generateStaticParams() {
  return staticParams('category', 'slug')
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params
  const [category, settings] = await Promise.all([getCategory(slug), getSiteSettings()])
  if (!category?.title) return {}
  return pageMetadata({
    title: withBrand(category.title, settings),
    description: category.description,
    path: categoryPath(slug),
    settings,
    feed: true,
  })
}

export default async function CategoryRoute({ params }: Props) {
  const { slug } = await params
  const [category, settings] = await Promise.all([getCategory(slug), getSiteSettings()])
  if (!category?.title) notFound()
  return (
    <ArticlesShell settings={settings}>
      <Breadcrumbs crumbs={articlesTrail({ name: category.title, path: categoryPath(slug) })} />
      <header className="mt-6 max-w-3xl">
        <h1 className="text-3xl font-extrabold tracking-tight text-balance text-navy-950 sm:text-5xl">
          {category.title}
        </h1>
        {category.description ? (
          <p className="mt-4 text-lg text-pretty text-slate-700">{category.description}</p>
        ) : null}
      </header>
      <div className="mt-10">
        {category.articles.length > 0 ? (
          <ArticleGrid articles={category.articles} lazy />
        ) : (
          <p className="text-slate-700">Nenhum artigo nesta categoria ainda.</p>
        )}
      </div>
    </ArticlesShell>
  )
}

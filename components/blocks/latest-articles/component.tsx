import { ArticleGrid } from '@/components/articles/article-card'
import { Section } from '@/components/ui/section'
import { ARTICLES_PREFIX, categoryPath } from '@/sanity/lib/paths'

import { blockAnchor, type BlockProps } from '../types'

/**
 * The newest articles (optionally from one category) as cards, with a link to see them all.
 * lib/content getCampaignPage keeps only those inside their window and has the page expire at
 * their next boundary.
 */
export function LatestArticlesBlock({ block }: BlockProps<'latestArticlesBlock'>) {
  const articles = (block.articles ?? []).slice(0, Math.max(1, Math.min(12, block.count ?? 3)))
  if (articles.length === 0) return null
  const all = block.category?.slug
    ? {
        href: categoryPath(block.category.slug),
        label: `Ver todos em ${block.category.title ?? 'a categoria'}`,
      }
    : { href: ARTICLES_PREFIX, label: 'Ver todos os conteúdos' }
  return (
    <Section id={blockAnchor(block)} intro={block}>
      <div className="mt-12">
        <ArticleGrid articles={articles} headingLevel={3} />
      </div>
      <p className="mt-8 text-center">
        <a href={all.href} className="font-semibold text-brand-700 underline underline-offset-4">
          {all.label}
        </a>
      </p>
    </Section>
  )
}

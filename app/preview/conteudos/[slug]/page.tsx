import type { Metadata } from 'next'
import { draftMode } from 'next/headers'
import { notFound, redirect } from 'next/navigation'

import { ArticleView } from '@/components/articles/article-view'
import { getArticle, getSiteSettings } from '@/lib/content'
import { articlePath } from '@/sanity/lib/paths'

import { DraftModeOverlay } from '../../draft-mode-overlay'

// An article as the Presentation tool frames it: the article (its draft, in draft mode) plus
// Sanity's click-to-edit overlay, on a route of its own so the overlay's code never ships with
// the public article (see app/preview/page.tsx). Unpublished articles are previewed here too.
export const metadata: Metadata = { robots: { index: false, follow: false } }

type Props = { params: Promise<{ slug: string }> }

export default async function ArticlePreview({ params }: Props) {
  const { slug } = await params
  const { isEnabled } = await draftMode()
  if (!isEnabled) redirect(articlePath(slug))
  const [article, settings] = await Promise.all([
    getArticle(slug, { anyWindow: true }),
    getSiteSettings(),
  ])
  if (!article) notFound()
  return (
    <>
      <ArticleView article={article} settings={settings} />
      <DraftModeOverlay />
    </>
  )
}

import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { ArticleView } from '@/components/articles/article-view'
import { CampaignPageView } from '@/components/campaign-page-view'
import { MaterialPageView } from '@/components/materials/material-page-view'
import { getReviewPage, getSiteSettings } from '@/lib/content'
import { formatSiteTime } from '@/lib/content/visibility'
import {
  blocksWithVariant,
  PREVIEW_VARIANT_PARAM,
  previewVariant,
} from '@/lib/experiments/variants'

// A review link (Studio: "Criar link de revisão" on a campaign page, an article or a material): its
// draft, read-only, whatever its visibility window,
// for someone without a Studio login. Rendered on every request and never stored: no ISR entry,
// Cache-Control private/no-store (Next's answer for a dynamic page), so no other visitor and no
// CDN ever gets it. A malformed, altered, revoked or expired token answers 404, as does a link
// that would live more than 30 days (lib/review-token.ts) or a server without the read token;
// proxy.ts answers a malformed one and rate-limits the lookups before this runs. The token only
// leads to this one document's draft (REVIEW_PAGE_QUERY, REVIEW_ARTICLE_QUERY, REVIEW_MATERIAL_QUERY). docs/campaigns.md, "Review links".
export const dynamic = 'force-dynamic'

export const metadata: Metadata = {
  title: 'Pré-visualização (rascunho)',
  robots: { index: false, follow: false, nocache: true },
}

type Props = {
  params: Promise<{ token: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

export default async function ReviewPage({ params, searchParams }: Props) {
  const { token } = await params
  // The token first: a refused one answers 404 having asked for nothing else.
  const review = await getReviewPage(token)
  if (!review) notFound()
  const settings = await getSiteSettings()
  // A campaign page's experiment variant with ?variante=<experiment>/<variant> (the Studio's dialog
  // lists one link a variant).
  const { experiment, variant } = previewVariant((await searchParams)[PREVIEW_VARIANT_PARAM])
  const expires = review.expiresAt ? Date.parse(review.expiresAt) : undefined
  return (
    <>
      {review.kind === 'article' ? (
        <ArticleView article={review.article} settings={settings} />
      ) : review.kind === 'material' ? (
        <MaterialPageView material={review.material} settings={settings} />
      ) : (
        <CampaignPageView
          page={{
            ...review.page,
            blocks: blocksWithVariant(review.page.blocks, experiment, variant),
          }}
          settings={settings}
        />
      )}
      <p
        role="status"
        className="fixed right-4 bottom-4 z-50 max-w-xs rounded-lg bg-navy-950 px-4 py-3 text-sm text-white shadow-lg"
      >
        <strong className="font-semibold">Pré-visualização</strong>: rascunho não publicado, só para
        leitura.
        {expires ? ` Link válido até ${formatSiteTime(expires)} (horário de Brasília).` : null}
      </p>
    </>
  )
}

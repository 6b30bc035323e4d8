import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { getReviewPage, getSiteSettings } from '@/lib/content'
import { formatSiteTime } from '@/lib/content/visibility'
import { ROUTED_VIEWS, type RoutedView } from '@/lib/routed-type-views'

// A review link (Studio: "Criar link de revisão" on a routed type with studio.reviewLinks): its
// draft, read-only, whatever its visibility window, in its type's view (ROUTED_VIEWS),
// for someone without a Studio login. Rendered on every request and never stored: no ISR entry,
// Cache-Control private/no-store (Next's answer for a dynamic page), so no other visitor and no
// CDN ever gets it. A malformed, altered, revoked or expired token answers 404, as does a link
// that would live more than 30 days (lib/review-token.ts) or a server without the read token;
// proxy.ts answers a malformed one and rate-limits the lookups before this runs. The token only
// leads to this one document's draft (its type's queries.review). docs/campaigns.md, "Review links".
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
  const View: RoutedView = ROUTED_VIEWS[review.name as keyof typeof ROUTED_VIEWS]
  const expires = review.expiresAt ? Date.parse(review.expiresAt) : undefined
  return (
    <>
      <View doc={review.doc} settings={settings} searchParams={await searchParams} />
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

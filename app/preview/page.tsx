import type { Metadata } from 'next'
import { draftMode } from 'next/headers'
import { redirect } from 'next/navigation'

import { HomePageView } from '@/components/home-page-view'
import { PREVIEW_VARIANT_PARAM, previewVariant } from '@/lib/experiments/variants'

import { DraftModeOverlay } from './draft-mode-overlay'

// The page the Studio's Presentation tool frames: the home page plus Sanity's click-to-edit
// overlay. A route of its own so the overlay's client code is part of this route's bundle only,
// never of the public home page's (a client component reachable from "/" ships with "/", even
// when it does not render).
export const revalidate = 3600

export const metadata: Metadata = { robots: { index: false, follow: false } }

export default async function PreviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>
}) {
  const { isEnabled } = await draftMode()
  // Prerendered (draft mode off) this is just a redirect; only editors render the preview.
  if (!isEnabled) redirect('/')
  // One experiment variant with ?variante=<experiment>/<variant> (its Presentation links).
  const { experiment, variant } = previewVariant((await searchParams)[PREVIEW_VARIANT_PARAM])
  return (
    <>
      <HomePageView experiment={experiment} variant={variant} />
      <DraftModeOverlay />
    </>
  )
}

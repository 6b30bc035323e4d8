import type { Metadata } from 'next'
import { draftMode } from 'next/headers'
import { notFound, redirect } from 'next/navigation'

import { CampaignPageView } from '@/components/campaign-page-view'
import { getCampaignPage, getSiteSettings } from '@/lib/content'
import {
  blocksWithVariant,
  PREVIEW_VARIANT_PARAM,
  previewVariant,
} from '@/lib/experiments/variants'
import { campaignPath } from '@/sanity/lib/paths'

import { DraftModeOverlay } from '../../draft-mode-overlay'

// A campaign page as the Presentation tool frames it: the page (its draft, in draft mode) plus
// Sanity's click-to-edit overlay, on a route of its own so the overlay's code never ships with
// the public page (see app/preview/page.tsx). Unpublished pages are previewed here too, and one
// experiment variant with ?variante=<experiment>/<variant> (the experiment's Presentation links).
export const metadata: Metadata = { robots: { index: false, follow: false } }

type Props = {
  params: Promise<{ slug: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

export default async function CampaignPagePreview({ params, searchParams }: Props) {
  const { slug } = await params
  const { isEnabled } = await draftMode()
  if (!isEnabled) redirect(campaignPath(slug))
  const [page, settings] = await Promise.all([
    getCampaignPage(slug, { anyWindow: true }),
    getSiteSettings(),
  ])
  if (!page) notFound()
  const { experiment, variant } = previewVariant((await searchParams)[PREVIEW_VARIANT_PARAM])
  return (
    <>
      <CampaignPageView
        page={{ ...page, blocks: blocksWithVariant(page.blocks, experiment, variant) }}
        settings={settings}
      />
      <DraftModeOverlay />
    </>
  )
}

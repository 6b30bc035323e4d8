import type { Metadata } from 'next'
import { draftMode } from 'next/headers'
import { notFound, redirect } from 'next/navigation'

import { CampaignPageView } from '@/components/campaign-page-view'
import { getCampaignPage, getSiteSettings } from '@/lib/content'
import { campaignPath } from '@/sanity/lib/paths'

import { DraftModeOverlay } from '../../draft-mode-overlay'

// A campaign page as the Presentation tool frames it: the page (its draft, in draft mode) plus
// Sanity's click-to-edit overlay, on a route of its own so the overlay's code never ships with
// the public page (see app/preview/page.tsx). Unpublished pages are previewed here too.
export const metadata: Metadata = { robots: { index: false, follow: false } }

type Props = { params: Promise<{ slug: string }> }

export default async function CampaignPagePreview({ params }: Props) {
  const { slug } = await params
  const { isEnabled } = await draftMode()
  if (!isEnabled) redirect(campaignPath(slug))
  const [page, settings] = await Promise.all([
    getCampaignPage(slug, { anyWindow: true }),
    getSiteSettings(),
  ])
  if (!page) notFound()
  return (
    <>
      <CampaignPageView page={page} settings={settings} />
      <DraftModeOverlay />
    </>
  )
}

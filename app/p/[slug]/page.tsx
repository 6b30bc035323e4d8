import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { CampaignPageView } from '@/components/campaign-page-view'
import { getCampaignPage, getPageExperiment, getSiteSettings } from '@/lib/content'
import { blocksWithVariant } from '@/lib/experiments/variants'
import { variantMetadata } from '@/lib/experiments/metadata'
import { campaignMetadata } from '@/lib/campaign-metadata'
import { staticParams } from '@/lib/routed-type-plans'
import { campaignPath } from '@/sanity/lib/paths'

// Campaign pages (campaignPage documents), built by editors from blocks. The ones published at
// build time are prerendered; one published later is rendered on its first request and cached
// like the others (dynamicParams), and the webhook revalidates the campaignPage tag and requests
// the page, so it is live within seconds with no deploy. A slug with no published page answers
// 404 (drafts are only seen in draft mode); redirects are answered before this route (proxy.ts).
// A page with a visibility window answers 404 before its start and from its end (or, when the
// editor chose one, proxy.ts redirects): lib/content judges the window and has the cached answer
// expire at the next start or end, so it goes live and away by itself (docs/campaigns.md).
// With an experiment running on it this is its default; the other variants are app/variante's.
export const revalidate = 3600
export const dynamicParams = true

type Props = { params: Promise<{ slug: string }> }

export function generateStaticParams() {
  return staticParams('campaignPage', 'slug')
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params
  const [page, settings, experiment] = await Promise.all([
    getCampaignPage(slug),
    getSiteSettings(),
    getPageExperiment(campaignPath(slug)),
  ])
  if (!page?.title) return {}
  return {
    ...campaignMetadata(slug, page, settings),
    ...variantMetadata(experiment),
  }
}

export default async function CampaignPageRoute({ params }: Props) {
  const { slug } = await params
  const [page, settings] = await Promise.all([getCampaignPage(slug), getSiteSettings()])
  if (!page) notFound()
  return (
    <CampaignPageView
      page={{ ...page, blocks: blocksWithVariant(page.blocks, undefined) }}
      settings={settings}
    />
  )
}

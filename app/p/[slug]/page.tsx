import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { CampaignPageView } from '@/components/campaign-page-view'
import { getCampaignPage, getSiteSettings } from '@/lib/content'
import { SITE_SHARE_IMAGE, shareImageUrl } from '@/lib/content/share-image'
import { pageMetadata, withBrand } from '@/lib/site-metadata'
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
export const revalidate = 3600
export const dynamicParams = true

type Props = { params: Promise<{ slug: string }> }

export function generateStaticParams() {
  return staticParams('campaignPage', 'slug')
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params
  const [page, settings] = await Promise.all([getCampaignPage(slug), getSiteSettings()])
  if (!page?.title) return {}
  return pageMetadata({
    path: campaignPath(slug),
    title: page.seo?.title ?? withBrand(page.title, settings),
    description: page.seo?.description,
    settings,
    noindex: page.seo?.noindex ?? false,
    shareImage: shareImageUrl(page.seo?.shareImage) ?? SITE_SHARE_IMAGE,
  })
}

export default async function CampaignPageRoute({ params }: Props) {
  const { slug } = await params
  const [page, settings] = await Promise.all([getCampaignPage(slug), getSiteSettings()])
  if (!page) notFound()
  return <CampaignPageView page={page} settings={settings} />
}

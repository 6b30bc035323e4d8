import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { CampaignPageView } from '@/components/campaign-page-view'
import { campaignMetadata } from '@/lib/campaign-metadata'
import { getCampaignPage, getExperiments, getServedVariant, getSiteSettings } from '@/lib/content'
import { blocksWithVariant } from '@/lib/experiments/variants'
import { variantMetadata } from '@/lib/experiments/metadata'
import { variantParams } from '@/lib/experiments/params'
import { campaignPath } from '@/sanity/lib/paths'

// One variant of an experiment on a campaign page (docs/experiments.md): as the home page's
// variants (app/variante/[experiment]/[variant]/page.tsx), for /p/<slug>.
export const revalidate = 3600
export const dynamicParams = true

type Props = { params: Promise<{ experiment: string; variant: string; slug: string }> }

export async function generateStaticParams() {
  return variantParams(await getExperiments(), '/p/')
}

async function load(params: Props['params']) {
  const { experiment, variant, slug } = await params
  const running = await getServedVariant(campaignPath(slug), experiment, variant)
  if (!running) return null
  const [page, settings] = await Promise.all([getCampaignPage(slug), getSiteSettings()])
  return page ? { running, variant, slug, page, settings } : null
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const loaded = await load(params)
  if (!loaded?.page.title) return {}
  const { running, variant, slug, page, settings } = loaded
  return {
    ...campaignMetadata(slug, page, settings),
    ...variantMetadata(running, variant),
  }
}

export default async function CampaignVariantPage({ params }: Props) {
  const loaded = await load(params)
  if (!loaded) notFound()
  const { running, variant, page, settings } = loaded
  return (
    <CampaignPageView
      page={{ ...page, blocks: blocksWithVariant(page.blocks, running.key, variant) }}
      settings={settings}
    />
  )
}

import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { HomePageView } from '@/components/home-page-view'
import { getExperiments, getServedVariant } from '@/lib/content'
import { variantMetadata } from '@/lib/experiments/metadata'
import { variantParams } from '@/lib/experiments/params'

// One variant of an experiment on the home page (docs/experiments.md): proxy.ts rewrites the
// visitors assigned to it here, keeping "/" in the address bar; a direct request for this path
// answers 404 there. Prerendered and cached like the home page (ISR), so serving a variant costs
// the origin no render per request. Search engines always get the default (proxy.ts); the page
// keeps the home page's robots and canonical, so one that slipped through indexes the public path.
export const revalidate = 3600
export const dynamicParams = true

type Props = { params: Promise<{ experiment: string; variant: string }> }

export async function generateStaticParams() {
  return variantParams(await getExperiments(), '/')
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { experiment, variant } = await params
  const running = await getServedVariant('/', experiment, variant)
  if (!running) return {}
  return variantMetadata(running, variant)
}

export default async function HomeVariantPage({ params }: Props) {
  const { experiment, variant } = await params
  const running = await getServedVariant('/', experiment, variant)
  if (!running) notFound()
  return <HomePageView experiment={running.key} variant={variant} />
}

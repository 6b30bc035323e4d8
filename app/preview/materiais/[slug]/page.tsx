import type { Metadata } from 'next'
import { draftMode } from 'next/headers'
import { notFound, redirect } from 'next/navigation'

import { MaterialPageView } from '@/components/materials/material-page-view'
import { getMaterial, getSiteSettings } from '@/lib/content'
import { materialPath } from '@/sanity/lib/paths'

import { DraftModeOverlay } from '../../draft-mode-overlay'

// A material as the Presentation tool frames it (its draft, in draft mode, whatever its window),
// with Sanity's click-to-edit overlay, as app/preview/p/[slug] does for campaign pages.
export const metadata: Metadata = { robots: { index: false, follow: false } }

type Props = { params: Promise<{ slug: string }> }

export default async function MaterialPreview({ params }: Props) {
  const { slug } = await params
  const { isEnabled } = await draftMode()
  if (!isEnabled) redirect(materialPath(slug))
  const [material, settings] = await Promise.all([
    getMaterial(slug, { anyWindow: true }),
    getSiteSettings(),
  ])
  if (!material) notFound()
  return (
    <>
      <MaterialPageView material={material} settings={settings} />
      <DraftModeOverlay />
    </>
  )
}

import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { MaterialPageView } from '@/components/materials/material-page-view'
import { getMaterial, getSiteSettings } from '@/lib/content'
import { SITE_SHARE_IMAGE, shareImageUrl } from '@/lib/content/share-image'
import { staticParams } from '@/lib/routed-type-plans'
import { pageMetadata, withBrand } from '@/lib/site-metadata'
import { materialPath } from '@/sanity/lib/paths'

// A material's page (material documents, issue 65): prerendered when published at build time,
// rendered on first request otherwise (dynamicParams), revalidated by the webhook like every
// routed type, 404 outside its window. The form's answer carries the download link; the page
// itself never holds the file's address.
export const revalidate = 3600
export const dynamicParams = true

type Props = { params: Promise<{ slug: string }> }

export function generateStaticParams() {
  return staticParams('material', 'slug')
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params
  const [material, settings] = await Promise.all([getMaterial(slug), getSiteSettings()])
  if (!material?.title) return {}
  return pageMetadata({
    path: materialPath(slug),
    title: material.seo?.title ?? withBrand(material.title, settings),
    description: material.seo?.description ?? material.description,
    settings,
    noindex: material.seo?.noindex ?? false,
    shareImage:
      shareImageUrl(material.seo?.shareImage) ?? shareImageUrl(material.cover) ?? SITE_SHARE_IMAGE,
  })
}

export default async function MaterialRoute({ params }: Props) {
  const { slug } = await params
  const [material, settings] = await Promise.all([getMaterial(slug), getSiteSettings()])
  if (!material) notFound()
  return <MaterialPageView material={material} settings={settings} />
}

import type { Metadata } from 'next'

import type { CampaignPage, SiteSettings } from '@/lib/content'
import { SITE_SHARE_IMAGE, shareImageUrl } from '@/lib/content/share-image'
import { pageMetadata, withBrand } from '@/lib/site-metadata'
import { campaignPath } from '@/sanity/lib/paths'

/** The page's own metadata, shared with its variants (app/p/[slug] and app/variante). */
export function campaignMetadata(
  slug: string,
  page: CampaignPage,
  settings: SiteSettings | null,
): Metadata {
  return pageMetadata({
    path: campaignPath(slug),
    title: page.seo?.title ?? withBrand(page.title ?? '', settings),
    description: page.seo?.description,
    settings,
    noindex: page.seo?.noindex ?? false,
    shareImage: shareImageUrl(page.seo?.shareImage) ?? SITE_SHARE_IMAGE,
  })
}

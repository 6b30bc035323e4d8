import type { Metadata } from 'next'

import { LISTING_DESCRIPTION, ListingView } from '@/components/articles/listing-view'
import { LISTING_TITLE } from '@/lib/articles/trail'
import { getArticleListPage, getSiteSettings } from '@/lib/content'
import { pageMetadata, withBrand } from '@/lib/site-metadata'
import { ARTICLES_PREFIX } from '@/sanity/lib/paths'

// The listing's first page: the newest articles. Regenerated like every content page: the
// webhook revalidates the article tag and requests this page (app/api/revalidate).
export const revalidate = 3600

export async function generateMetadata(): Promise<Metadata> {
  const settings = await getSiteSettings()
  return pageMetadata({
    title: withBrand(LISTING_TITLE, settings),
    description: LISTING_DESCRIPTION,
    path: ARTICLES_PREFIX,
    settings,
    feed: true,
  })
}

export default async function ArticlesListingRoute() {
  const [list, settings] = await Promise.all([getArticleListPage(1), getSiteSettings()])
  return <ListingView list={list} page={1} settings={settings} />
}

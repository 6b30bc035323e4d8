import type { Metadata } from 'next'

import { LISTING_DESCRIPTION, LISTING_TITLE, ListingView } from '@/components/articles/listing-view'
import { articlesMetadata, withBrand } from '@/lib/articles/metadata'
import { getArticleListPage, getSiteSettings } from '@/lib/content'
import { ARTICLES_PREFIX } from '@/sanity/lib/paths'

// The listing's first page: the newest articles. Regenerated like every content page: the
// webhook revalidates the article tag and requests this page (app/api/revalidate).
export const revalidate = 3600

export async function generateMetadata(): Promise<Metadata> {
  const settings = await getSiteSettings()
  return articlesMetadata({
    title: withBrand(LISTING_TITLE, settings),
    description: LISTING_DESCRIPTION,
    path: ARTICLES_PREFIX,
    settings,
  })
}

export default async function ArticlesListingRoute() {
  const [list, settings] = await Promise.all([getArticleListPage(1), getSiteSettings()])
  return <ListingView list={list} page={1} settings={settings} />
}

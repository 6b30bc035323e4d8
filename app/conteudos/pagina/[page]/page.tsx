import type { Metadata } from 'next'
import { notFound, permanentRedirect } from 'next/navigation'

import { LISTING_DESCRIPTION, ListingView } from '@/components/articles/listing-view'
import { LISTING_TITLE } from '@/lib/articles/trail'
import { getArticleListPage, getSiteSettings } from '@/lib/content'
import { pageMetadata, withBrand } from '@/lib/site-metadata'
import { ARTICLES_PREFIX, listingPagePath } from '@/sanity/lib/paths'
import { staticParams } from '@/lib/routed-type-plans'

// The listing's pages from 2 on, each at a real URL with its own canonical: /conteudos/pagina/2.
// A page past the last answers 404; the first few are prerendered (lib/routed-type-plans.ts), any
// other is rendered on its first request.
export const revalidate = 3600
export const dynamicParams = true

type Props = { params: Promise<{ page: string }> }

/** The page number in the URL, or null when it is not a plain integer from 1 up. */
function pageNumber(value: string): number | null {
  return /^[1-9]\d{0,4}$/.test(value) ? Number(value) : null
}

export async function generateStaticParams() {
  // Page 1 is /conteudos.
  return (await staticParams('articleListing', 'page')).filter(({ page }) => page !== '1')
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = pageNumber((await params).page)
  if (!page || page < 2) return {}
  const settings = await getSiteSettings()
  return pageMetadata({
    title: withBrand(`${LISTING_TITLE}: página ${page}`, settings),
    description: LISTING_DESCRIPTION,
    path: listingPagePath(page),
    settings,
    feed: true,
  })
}

export default async function ArticlesListingPageRoute({ params }: Props) {
  const page = pageNumber((await params).page)
  if (!page) notFound()
  // Page 1 has one address only.
  if (page === 1) permanentRedirect(ARTICLES_PREFIX)
  const [list, settings] = await Promise.all([getArticleListPage(page), getSiteSettings()])
  if (list.articles.length === 0) notFound()
  return <ListingView list={list} page={page} settings={settings} />
}

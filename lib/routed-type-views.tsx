import type { ReactNode } from 'react'

import { ArticleView } from '@/components/articles/article-view'
import { CampaignPageView } from '@/components/campaign-page-view'
import { MaterialPageView } from '@/components/materials/material-page-view'
import { liveItems } from '@/lib/articles/windows'
import { RELATED_COUNT } from '@/lib/content'
import {
  blocksWithVariant,
  PREVIEW_VARIANT_PARAM,
  previewVariant,
} from '@/lib/experiments/variants'
import type { ROUTED_TYPES } from '@/sanity/routed-type-definitions'
import type {
  REVIEW_ARTICLE_QUERY_RESULT,
  REVIEW_MATERIAL_QUERY_RESULT,
  REVIEW_PAGE_QUERY_RESULT,
  SITE_SETTINGS_QUERY_RESULT,
} from '@/sanity/types'

// The server half of a routed type's definition with review links: its view of the document its
// `queries.review` reads, which app/revisao renders for the document a link names. The definitions
// cannot hold it: the Studio's bundle imports them. A type with reviewLinks and no view fails tsc.

type Definitions = typeof ROUTED_TYPES
type Reviewable = {
  [N in keyof Definitions]: Definitions[N] extends { studio: { reviewLinks: true } } ? N : never
}[keyof Definitions]

type ViewProps<T> = {
  doc: NonNullable<T>
  settings: SITE_SETTINGS_QUERY_RESULT
  searchParams: Record<string, string | string[] | undefined>
}
export type RoutedView = (props: ViewProps<unknown>) => ReactNode
const view = <T,>(render: (props: ViewProps<T>) => ReactNode) => render as RoutedView

export const ROUTED_VIEWS: Record<Reviewable, RoutedView> = {
  campaignPage: view<REVIEW_PAGE_QUERY_RESULT>(({ doc, settings, searchParams }) => {
    // One experiment variant with ?variante=<experiment>/<variant> (the Studio lists one a variant).
    const { experiment, variant } = previewVariant(searchParams[PREVIEW_VARIANT_PARAM])
    const blocks = blocksWithVariant(doc.blocks, experiment, variant)
    return <CampaignPageView page={{ ...doc, blocks }} settings={settings} />
  }),
  // The draft whatever its window; its related articles as the live page has them.
  article: view<REVIEW_ARTICLE_QUERY_RESULT>(({ doc, settings }) => (
    <ArticleView
      article={{ ...doc, related: liveItems(doc.related).slice(0, RELATED_COUNT) }}
      settings={settings}
    />
  )),
  material: view<REVIEW_MATERIAL_QUERY_RESULT>(({ doc, settings }) => (
    <MaterialPageView material={doc} settings={settings} />
  )),
}

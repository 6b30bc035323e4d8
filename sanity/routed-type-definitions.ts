import { defineQuery } from 'next-sanity'

import { materialPageProjection, pageVisibilityProjection } from './lib/fragments'
import {
  ARTICLES_PREFIX,
  CAMPAIGN_PREFIX,
  CATEGORY_PREFIX,
  LISTING_PAGE_PREFIX,
  articlePath,
  campaignPath,
  categoryPath,
  legalPagePath,
  listingPagePath,
  MATERIALS_PREFIX,
  materialPath,
} from './lib/paths'
import {
  CAMPAIGN_PAGE_QUERY,
  CAMPAIGN_PAGE_SLUGS_QUERY,
  LEGAL_PAGE_QUERY,
  LEGAL_PAGE_SLUGS_QUERY,
  REVIEW_ARTICLE_QUERY,
  REVIEW_MATERIAL_QUERY,
  REVIEW_PAGE_QUERY,
} from './lib/queries'
import type { RoutedTypeDefinition } from './lib/routed-type-definition'

// The routed types: every page made from a document, one definition each, read by the site and
// the Studio alike (so nothing here may import server code): address, slug rules, sitemap entry,
// prerender, Studio list, Presentation and Desempenho tab. Adding one: docs/routed-types.md.

/** Names under /conteudos/ the site routes itself, so no article can take them. */
export const ARTICLE_RESERVED_SLUGS: ReadonlyMap<string, string> = new Map([
  ['pagina', 'é onde ficam as páginas seguintes da lista de conteúdos (/conteudos/pagina/2)'],
  ['categoria', 'é o prefixo das páginas de categoria (/conteudos/categoria/...)'],
  ['feed', 'fica reservado para o feed de conteúdos (/conteudos/feed.xml)'],
])

/**
 * A material's page data (issue 65): everything its page shows and its form asks, and nothing of
 * its file: the page's HTML must not hold the file's address (the download is gated,
 * app/materiais/[slug]/baixar reads it with MATERIAL_FILE_QUERY).
 */
export const MATERIAL_QUERY = defineQuery(`
  *[_type == "material" && slug.current == $slug][0]{${materialPageProjection}}
`)

export const MATERIAL_SLUGS_QUERY = defineQuery(`
  *[_type == "material" && defined(slug.current)] | order(slug.current asc){
    "slug": slug.current,
    "noindex": coalesce(seo.noindex, false),
    _updatedAt,
    ${pageVisibilityProjection}
  }
`)

/** In the order the sitemap lists them. */
export const ROUTED_TYPES = {
  legalPage: {
    documentType: 'legalPage',
    prefix: '',
    path: legalPagePath,
    sharesSlugsWith: ['campaignPage'],
    sitemap: { changeFrequency: 'yearly', priority: 0.3 },
    queries: { document: LEGAL_PAGE_QUERY, slugs: LEGAL_PAGE_SLUGS_QUERY },
    // Its own list too: a handful of pages, and a deleted one's address must go at once.
    shows: ['legalPage'],
    studio: { title: 'Páginas legais', of: 'da página legal', group: 'site' },
  },
  campaignPage: {
    documentType: 'campaignPage',
    prefix: CAMPAIGN_PREFIX,
    path: campaignPath,
    redirectable: true,
    // A campaign page keeps the option of moving to the root: the root's reserved names.
    section: 'é o prefixo das páginas de campanha (/p/...)',
    sharesSlugsWith: ['legalPage'],
    windowed: true,
    sitemap: { changeFrequency: 'monthly', priority: 0.7 },
    queries: {
      document: CAMPAIGN_PAGE_QUERY,
      slugs: CAMPAIGN_PAGE_SLUGS_QUERY,
      review: REVIEW_PAGE_QUERY,
    },
    // Its blocks: figures, the hero's fallback visual, latest articles, the calculator, a material.
    shows: ['claim', 'landingPage', 'article', 'category', 'roiCalculator', 'material'],
    studio: {
      title: 'Páginas de campanha',
      of: 'da página de campanha',
      group: 'campaigns',
      preview: true,
      performance: true,
      reviewLinks: true,
    },
  },
  articleListing: {
    prefix: LISTING_PAGE_PREFIX,
    path: (page: string) => listingPagePath(Number(page)),
    sitemap: { changeFrequency: 'weekly', priority: (index: number) => (index === 0 ? 0.8 : 0.4) },
    prerender: 5,
  },
  category: {
    documentType: 'category',
    prefix: CATEGORY_PREFIX,
    path: categoryPath,
    sitemap: { changeFrequency: 'weekly', priority: 0.5 },
    studio: { title: 'Categorias', of: 'da categoria', group: 'articles' },
  },
  article: {
    documentType: 'article',
    prefix: ARTICLES_PREFIX,
    path: articlePath,
    redirectable: true,
    section: 'é a lista de artigos (/conteudos) e o prefixo de cada artigo',
    reservedSlugs: ARTICLE_RESERVED_SLUGS,
    windowed: true,
    // The feed beside the articles (app/conteudos/feed.xml).
    extraSlugs: ['feed.xml'],
    sitemap: { changeFrequency: 'monthly', priority: 0.6 },
    // The newest ones: the build no longer grows with the archive.
    prerender: 50,
    queries: { review: REVIEW_ARTICLE_QUERY },
    studio: {
      title: 'Artigos',
      of: 'do artigo',
      group: 'articles',
      ordering: { field: 'publishedAt', direction: 'desc' },
      preview: true,
      performance: true,
      reviewLinks: true,
    },
  },
  material: {
    documentType: 'material',
    prefix: MATERIALS_PREFIX,
    path: materialPath,
    redirectable: true,
    section: 'é a lista de materiais (/materiais) e o prefixo de cada material',
    windowed: true,
    sitemap: { changeFrequency: 'monthly', priority: 0.6 },
    queries: {
      document: MATERIAL_QUERY,
      slugs: MATERIAL_SLUGS_QUERY,
      review: REVIEW_MATERIAL_QUERY,
    },
    studio: {
      title: 'Materiais',
      of: 'do material',
      group: 'campaigns',
      preview: true,
      performance: true,
      reviewLinks: true,
    },
  },
} as const satisfies Record<string, RoutedTypeDefinition>

import { defineQuery } from 'next-sanity'

import { blockFragments } from '../../components/blocks/fragments'
import {
  articleCardProjection,
  articleFilter,
  liveAtNowFilter,
  cardProjection,
  claimProjection,
  heroVariantValuesProjection,
  imageProjection,
  linkProjection,
  materialCardProjection,
  materialPageProjection,
  pageVisibilityProjection,
  roiCalculatorProjection,
  sectionIntroProjection,
  variantEntryProjection,
  windowProjection,
} from './fragments'

export const SITE_SETTINGS_QUERY = defineQuery(`
  *[_type == "siteSettings" && _id == "siteSettings"][0]{
    brandName,
    tagline,
    logo{${imageProjection}},
    navigation[]{_key, label, anchor},
    headerCta,
    contact{email, phone, hours, whatsappNumber, whatsappGreeting, location, coverage},
    footer{
      description,
      legalLinks[]{_key, label, href},
      socialLinks[]{_key, platform, href}
    },
    seo{title, description, shareImage{${imageProjection}}},
    controller{legalName, cnpj},
    dataProtectionOfficer{name, email}
  }
`)

// The legal pages (privacy policy, terms, LGPD, accessibility): one route, app/[slug].
export const LEGAL_PAGE_QUERY = defineQuery(`
  *[_type == "legalPage" && slug.current == $slug][0]{
    title,
    "slug": slug.current,
    summary,
    updatedAt,
    body,
    showDataProtectionContacts,
    seoDescription
  }
`)

export const LEGAL_PAGE_SLUGS_QUERY = defineQuery(`
  *[_type == "legalPage" && defined(slug.current)] | order(slug.current asc){
    "slug": slug.current,
    // The sitemap's date: the text's own revision date, when the editor gave one.
    "_updatedAt": coalesce(updatedAt, _updatedAt)
  }
`)

export const LANDING_PAGE_QUERY = defineQuery(`
  *[_type == "landingPage" && _id == "landingPage"][0]{
    hero{
      eyebrow, headline, description, primaryCta, secondaryCta,
      visual{${imageProjection}},
      "stats": stats[]->{${claimProjection}},
      "experimentVariants": experimentVariants[]{${variantEntryProjection}, "values": {${heroVariantValuesProjection}, "primaryCta": ctaLabel}}
    },
    sobre{${sectionIntroProjection}, points[]{${cardProjection}}},
    comoFunciona{${sectionIntroProjection}, steps[]{${cardProjection}}},
    tecnologia{
      ${sectionIntroProjection},
      cards[]{${cardProjection}},
      specTitle,
      "specs": specs[]->{${claimProjection}}
    },
    beneficios{
      ${sectionIntroProjection},
      cards[]{${cardProjection}},
      roiTitle, roiDescription,
      "roiFigures": roiFigures[]->{${claimProjection}},
      marketsTitle,
      markets[]{_key, icon, name, description, badge}
    },
    contato{${sectionIntroProjection}, formTitle, detailsTitle, offerTitle, offers, whatsappCta}
  }
`)

/**
 * The savings calculator's assumptions (Studio: Premissas da calculadora de economia), for the
 * home page's ROI block and the no-JavaScript route /calculadora.
 */
export const ROI_CALCULATOR_QUERY = defineQuery(`
  *[_type == "roiCalculator" && _id == "roiCalculator"][0]{${roiCalculatorProjection}}
`)

// Campaign pages (app/p/[slug]): the page's SEO fields and its blocks, each projected by its own
// fragment (blockFragments, components/blocks/fragments.ts).
const campaignPageProjection = /* groq */ `
    _id,
    title,
    "slug": slug.current,
    ${pageVisibilityProjection},
    seo{title, description, noindex, shareImage{${imageProjection}}},
    blocks[]{
      _key,
      _type,
      ${blockFragments}
    }
`

export const CAMPAIGN_PAGE_QUERY = defineQuery(`
  *[_type == "campaignPage" && slug.current == $slug][0]{${campaignPageProjection}}
`)

/**
 * Every published campaign page, for the prerender, the sitemap, the CDN purge and the redirects
 * of pages outside their window. Whether a page is in its window is decided by the site at the
 * time of the request (lib/content/visibility.ts), not here: the answer is cached.
 */
export const CAMPAIGN_PAGE_SLUGS_QUERY = defineQuery(`
  *[_type == "campaignPage" && defined(slug.current)] | order(slug.current asc){
    "slug": slug.current,
    "noindex": coalesce(seo.noindex, false),
    _updatedAt,
    ${pageVisibilityProjection}
  }
`)

/**
 * Every published experiment with its page's type and slug (lib/content getExperiments makes the
 * page's path, lib/experiments/definition.ts judges which one runs where and when).
 */
export const EXPERIMENTS_QUERY = defineQuery(`
  *[_type == "experiment" && defined(key.current) && defined(page._ref)] | order(key.current asc){
    "key": key.current,
    title,
    goal,
    ${windowProjection},
    "page": page->{_type, "slug": slug.current},
    variants[]{key, label, weight}
  }
`)

/** Every published redirect, for the map proxy.ts answers from (app/api/redirects). */
export const REDIRECTS_QUERY = defineQuery(`
  *[_type == "redirect" && defined(from) && defined(to)] | order(from asc){from, to, permanent}
`)

/** Every redirect's starting path, to regenerate and purge them after a publish. */
export const REDIRECT_PATHS_QUERY = defineQuery(`
  *[_type == "redirect" && defined(from)] | order(from asc).from
`)

/**
 * The site-wide announcement bar (components/announcement-bar.tsx): its id and revision key the
 * visitor's "closed" choice, and its window is judged by the site at render time.
 */
export const ANNOUNCEMENT_QUERY = defineQuery(`
  *[_type == "announcement" && _id == "announcement"][0]{
    _id,
    _rev,
    text,
    tone,
    link{${linkProjection}},
    ${windowProjection}
  }
`)

/**
 * A review link (app/revisao/[token]) by its token's hash. Review links live under a private id
 * path (review-links.*): only a request with a token reads them (lib/review-token.ts).
 */
export const REVIEW_LINK_QUERY = defineQuery(`
  *[_type == "reviewLink" && tokenHash == $hash && _id in path("review-links.**")][0]{
    "pageId": page._ref,
    expiresAt,
    revoked,
    // When the Content Lake made it (not the editor's browser): the 30-day ceiling counts from it.
    "createdAt": coalesce(_createdAt, _updatedAt)
  }
`)

/**
 * The one campaign page a review link leads to: its draft, or the published page when it has no
 * draft. Read in the raw perspective, so what it references (claims, the home page's visual) is
 * the published version: the link gives access to this page's draft and to no other draft.
 */
export const REVIEW_PAGE_QUERY = defineQuery(`
  coalesce(
    *[_type == "campaignPage" && _id == "drafts." + $id][0],
    *[_type == "campaignPage" && _id == $id][0]
  ){${campaignPageProjection}}
`)

/** The one material a review link leads to, as REVIEW_PAGE_QUERY does for a page. */
export const REVIEW_MATERIAL_QUERY = defineQuery(`
  coalesce(
    *[_type == "material" && _id == "drafts." + $id][0],
    *[_type == "material" && _id == $id][0]
  ){${materialPageProjection}}
`)

// Articles (app/conteudos): one article, its list pages, its categories, the feed and the sitemap.
// Every list is newest first by publication date (the id breaks ties, so pages never overlap).

/**
 * One article with its author, categories and body (figures resolved from their claim documents).
 * Its related articles are a query of their own (RELATED_ARTICLES_QUERY), cached under its
 * categories' tags: an article publish then leaves the pages that do not show it cached.
 */
const articleFields = /* groq */ `
    _id,
    _updatedAt,
    title,
    "slug": slug.current,
    description,
    publishedAt,
    ${pageVisibilityProjection},
    cover{${imageProjection}},
    "categories": categories[]->{_id, title, "slug": slug.current},
    author->{name, kind, role, bio, photo{${imageProjection}}},
    seo{title, description, noindex, shareImage{${imageProjection}}},
    "material": material->{${materialCardProjection}},
    body[]{
      ...,
      _type == "image" => {_type, _key, caption, ${imageProjection}},
      _type == "claimFigure" => {_type, _key, "claim": claim->{${claimProjection}}},
      _type == "faqBlock" => {_type, _key, eyebrow, heading, intro, items[]{_key, question, answer}},
      _type == "articleCta" => {_type, _key, heading, text, label}
    }
  `

/**
 * The newest 12 published articles that share a category with it, of which the page shows the
 * first three inside their window (lib/content: windows are judged at render time). Never the
 * article itself, nor (for a review link's draft) its published version.
 */
const relatedArticles = /* groq */ `*[${articleFilter} && _id != $id && "drafts." + _id != $id
      && references($categories)]
      | order(publishedAt desc, _id asc)[0...12]{${articleCardProjection}}`

const articleProjection = /* groq */ `
    ${articleFields},
    "related": *[${articleFilter} && _id != ^._id && "drafts." + _id != ^._id
      && references(^.categories[]._ref)]
      | order(publishedAt desc, _id asc)[0...12]{${articleCardProjection}}
  `

export const ARTICLE_QUERY = defineQuery(`
  *[_type == "article" && slug.current == $slug][0]{${articleFields}}
`)

/** An article's related articles: $id the article, $categories its categories' ids. */
export const RELATED_ARTICLES_QUERY = defineQuery(relatedArticles)

/**
 * The one article a review link leads to, as REVIEW_PAGE_QUERY does for a page: its draft, or the
 * published article. Its related articles are published ones only (articleFilter excludes drafts
 * by id), so no other draft shows.
 */
export const REVIEW_ARTICLE_QUERY = defineQuery(`
  coalesce(
    *[_type == "article" && _id == "drafts." + $id][0],
    *[_type == "article" && _id == $id][0]
  ){${articleProjection}}
`)

/**
 * One page of the listing: the articles inside their window at $now, newest first, from $start
 * to $end (the page's slice only), how many there are, the next start or end of any article's
 * window after $now (the page expires then), and the categories.
 */
export const ARTICLE_LIST_PAGE_QUERY = defineQuery(`{
  "articles": *[${articleFilter} && ${liveAtNowFilter}]
    | order(publishedAt desc, _id asc)[$start...$end]{${articleCardProjection}},
  "total": count(*[${articleFilter} && ${liveAtNowFilter}]),
  "nextStart": *[${articleFilter} && dateTime(visibleFrom) > dateTime($now)]
    | order(visibleFrom asc)[0].visibleFrom,
  "nextEnd": *[${articleFilter} && dateTime(visibleUntil) > dateTime($now)]
    | order(visibleUntil asc)[0].visibleUntil,
  "categories": *[_type == "category" && defined(slug.current)] | order(title asc){
    _id, title, "slug": slug.current
  }
}`)

/**
 * What an article publish changes, read by the webhook once the article is as published ($id; a
 * deleted one is null here): its categories, and for each of them and of $categories (the ones it
 * had before) the 13th newest article, older than every article some related list shows; how
 * many articles are newer (its listing page); the campaign pages with a latest-articles block.
 * Its categories are followed from the article (->), not found by a filter that reads the article
 * again for every document: that took 1.1 s of the publish with 1,000 articles. A category in both
 * lists comes twice (publishPlan keeps each tag and path once).
 */
export const ARTICLE_PUBLISH_QUERY = defineQuery(`{
  "article": *[${articleFilter} && _id == $id][0]{
    "slug": slug.current,
    publishedAt,
    "categories": categories[]._ref,
    "newer": count(*[${articleFilter} && (publishedAt > ^.publishedAt
      || (publishedAt == ^.publishedAt && _id < ^._id))])
  },
  "categories": (coalesce(*[_id == $id][0].categories[]->, [])
    + *[_type == "category" && _id in $categories])[_type == "category" && defined(slug.current)]{
    _id,
    "slug": slug.current,
    "cutoff": *[${articleFilter} && references(^._id)]
      | order(publishedAt desc, _id asc)[12]{_id, publishedAt}
  },
  "latestBlocks": *[_type == "campaignPage" && defined(slug.current)
    && count(blocks[_type == "latestArticlesBlock"]) > 0].slug.current
}`)

/**
 * The published articles that show this document, a category or an author (the webhook: their
 * pages change with it), with their categories (the related lists that show their cards).
 */
export const ARTICLES_SHOWING_QUERY = defineQuery(`
  *[${articleFilter} && references($id)]{"slug": slug.current, "categories": categories[]._ref}
`)

/** A category and its articles, newest first (at most 100: docs/articles.md). */
export const CATEGORY_QUERY = defineQuery(`
  *[_type == "category" && slug.current == $slug][0]{
    _id,
    title,
    "slug": slug.current,
    description,
    "articles": *[${articleFilter} && references(^._id)]
      | order(publishedAt desc, _id asc)[0...100]{${articleCardProjection}}
  }
`)

/**
 * Every published article's slug, dates and window, for the prerender, the sitemap, the CDN purge
 * and the redirects of articles outside their window.
 */
export const ARTICLE_SLUGS_QUERY = defineQuery(`
  *[${articleFilter}] | order(publishedAt desc, _id asc){
    "slug": slug.current,
    "noindex": coalesce(seo.noindex, false),
    publishedAt,
    _updatedAt,
    ${pageVisibilityProjection}
  }
`)

/** Every category's slug, with the date of its newest article (the sitemap's lastmod). */
export const CATEGORY_SLUGS_QUERY = defineQuery(`
  *[_type == "category" && defined(slug.current)] | order(slug.current asc){
    "slug": slug.current,
    _updatedAt,
    "latest": *[${articleFilter} && references(^._id)] | order(publishedAt desc)[0].publishedAt
  }
`)

/** The feed: the latest articles (the site keeps the first 20 inside their window). */
export const ARTICLE_FEED_QUERY = defineQuery(`
  *[${articleFilter}] | order(publishedAt desc, _id asc)[0...100]{
    _id,
    title,
    "slug": slug.current,
    description,
    publishedAt,
    _updatedAt,
    "author": author->name,
    "categories": categories[]->title,
    ${windowProjection}
  }
`)

/** The list at /materiais: every published material's card, newest first (lib/content keeps the live ones). */
export const MATERIAL_LIST_QUERY = defineQuery(`
  *[_type == "material" && defined(slug.current) && !(_id in path("drafts.**"))]
    | order(_createdAt desc, _id asc){${materialCardProjection}}
`)

/**
 * A material's file, for the gated download only (app/materiais/[slug]/baixar): its asset's
 * address, name and type, or the external address, and its window. No page query projects these.
 */
export const MATERIAL_FILE_QUERY = defineQuery(`
  *[_type == "material" && slug.current == $slug][0]{
    title, "slug": slug.current,
    "file": file.asset->{url, originalFilename, mimeType, size},
    externalUrl,
    ${windowProjection}
  }
`)

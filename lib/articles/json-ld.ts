import { stegaClean } from 'next-sanity'

// schema.org data for an article page, built from the same values the page prints, so what a
// search engine reads is what a visitor sees (tests/e2e/articles.spec.ts compares them).
// https://developers.google.com/search/docs/appearance/structured-data/article
// https://developers.google.com/search/docs/appearance/structured-data/breadcrumb

export type Crumb = { name: string; path: string }

type ArticleInput = {
  title: string
  description: string | null
  /** ISO date-times, exactly the values of the page's <time datetime>. */
  datePublished: string
  dateModified: string
  author: { name: string; kind: string | null; role: string | null } | null
  categories: string[]
  /** Absolute URLs. */
  url: string
  image: string
}

type Publisher = { name: string; logo: string; url: string }

const clean = (value: string | null | undefined) => (value ? stegaClean(value) : undefined)

/** BlogPosting: a team signs as an Organization, a person as a Person with their role. */
export function articleJsonLd(article: ArticleInput, publisher: Publisher) {
  const author = article.author
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    mainEntityOfPage: { '@type': 'WebPage', '@id': article.url },
    url: article.url,
    headline: clean(article.title),
    description: clean(article.description),
    image: [article.image],
    datePublished: article.datePublished,
    dateModified: article.dateModified,
    inLanguage: 'pt-BR',
    articleSection: article.categories.map((name) => stegaClean(name)),
    author: author
      ? author.kind === 'team'
        ? { '@type': 'Organization', name: clean(author.name), url: publisher.url }
        : { '@type': 'Person', name: clean(author.name), jobTitle: clean(author.role) }
      : undefined,
    publisher: {
      '@type': 'Organization',
      name: publisher.name,
      url: publisher.url,
      logo: { '@type': 'ImageObject', url: publisher.logo },
    },
  }
}

/** BreadcrumbList of the visible trail, each step an absolute URL on `origin`. */
export function breadcrumbJsonLd(crumbs: readonly Crumb[], origin: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: stegaClean(crumb.name),
      item: new URL(crumb.path, origin).href,
    })),
  }
}

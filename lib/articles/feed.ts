import { stegaClean } from 'next-sanity'

// The articles' RSS 2.0 feed (https://www.rssboard.org/rss-specification), written out here: it
// is a few elements, and every value goes through xmlText.

export type FeedItem = {
  title: string
  /** Absolute URL of the article: also its guid. */
  url: string
  description: string | null
  publishedAt: string
  author: string | null
  categories: string[]
}

export type FeedChannel = {
  title: string
  description: string
  /** Absolute URL of the listing. */
  link: string
  /** Absolute URL of the feed itself. */
  self: string
  items: FeedItem[]
}

/** Text for an XML element or attribute: markup characters escaped, control characters dropped. */
export function xmlText(value: string): string {
  return (
    stegaClean(value)
      // Characters XML 1.0 does not allow at all.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  )
}

/** RFC 822 date, as RSS 2.0 requires: "Tue, 10 Nov 2026 12:00:00 GMT". */
export function rssDate(iso: string): string {
  return new Date(stegaClean(iso)).toUTCString()
}

export function rssFeed(channel: FeedChannel): string {
  const items = channel.items.map((item) =>
    [
      '    <item>',
      `      <title>${xmlText(item.title)}</title>`,
      `      <link>${xmlText(item.url)}</link>`,
      `      <guid isPermaLink="true">${xmlText(item.url)}</guid>`,
      `      <pubDate>${rssDate(item.publishedAt)}</pubDate>`,
      ...(item.description
        ? [`      <description>${xmlText(item.description)}</description>`]
        : []),
      ...(item.author ? [`      <dc:creator>${xmlText(item.author)}</dc:creator>`] : []),
      ...item.categories.map((category) => `      <category>${xmlText(category)}</category>`),
      '    </item>',
    ].join('\n'),
  )
  const newest = channel.items[0]?.publishedAt
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>${xmlText(channel.title)}</title>`,
    `    <link>${xmlText(channel.link)}</link>`,
    `    <description>${xmlText(channel.description)}</description>`,
    '    <language>pt-BR</language>',
    `    <atom:link href="${xmlText(channel.self)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${rssDate(newest)}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
}

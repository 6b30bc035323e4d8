import { stegaClean } from 'next-sanity'

import { SITE_TIME_ZONE, siteDay } from '@/lib/site-time.mjs'

// Article dates as Brazilians read them, in the company's time zone (São Paulo), so "publicado
// em 10 de novembro de 2026" never shifts a day with the server's or the visitor's zone.
const LONG = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeZone: SITE_TIME_ZONE })

function parse(value: string | null | undefined): Date | null {
  if (!value) return null
  const date = new Date(stegaClean(value))
  return Number.isNaN(date.getTime()) ? null : date
}

/** "10 de novembro de 2026", or '' for a missing or invalid date. */
export function formatArticleDate(value: string | null | undefined): string {
  const date = parse(value)
  return date ? LONG.format(date) : ''
}

/**
 * The date the article was last edited when it is a later day than its publication (a same-day
 * fix is not an update worth announcing), else null. Sanity sets `_updatedAt` on every publish.
 */
export function visibleUpdateDate(
  publishedAt: string | null | undefined,
  updatedAt: string | null | undefined,
): string | null {
  const published = parse(publishedAt)
  const updated = parse(updatedAt)
  if (!published || !updated) return null
  return siteDay(updated) > siteDay(published) ? stegaClean(updatedAt!) : null
}

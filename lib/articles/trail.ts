import { ARTICLES_PREFIX } from '@/sanity/lib/paths'

import type { Crumb } from './json-ld'

/** The listing's name: its h1, its crumb, its feed's and its pages' titles. */
export const LISTING_TITLE = 'Conteúdos'

/** A /conteudos page's trail: Início / Conteúdos, then the page's own steps. */
export function articlesTrail(...steps: Crumb[]): Crumb[] {
  return [{ name: 'Início', path: '/' }, { name: LISTING_TITLE, path: ARTICLES_PREFIX }, ...steps]
}

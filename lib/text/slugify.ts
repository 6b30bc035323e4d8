/**
 * Text as a part of an address: accents dropped, lower case, every run of other characters one
 * hyphen, none at either end, at most `max` characters. `keep`: further characters kept as they
 * are (a regex class's contents, e.g. '_'). "Base legal e informação" → "base-legal-e-informacao".
 * No imports: the Studio's bundle loads it (campaign links).
 */
export function slugify(text: string, max: number, keep = ''): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(new RegExp(`[^a-z0-9${keep}]+`, 'g'), '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '')
}

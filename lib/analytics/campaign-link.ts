// The campaign link builder of the Studio's Desempenho tool (docs/analytics.md, "The Studio"):
// marketing names a campaign once and copies the tagged link for an ad, a newsletter or a QR code.
// Shared by the Studio (browser) and its tests; no server-only imports.

import { TAG_MAX_LENGTH, UTM_KEYS, type UtmKey } from '../campaign-tags'
import { slugify } from '../text/slugify'

/** What a link is tagged with. */
export type CampaignLinkInput = {
  /** The site's origin, e.g. https://vigia.com.br (the Studio's own, which serves the site). */
  origin: string
  /** The page the link opens, a path of the site ("/", "/p/onibus", "/conteudos/x"). */
  path: string
  campaign: string
  source: string
  medium: string
}

/**
 * Sanity's built-in roles that can write content: only their users may name a campaign (a name
 * changes what the counting keeps). Viewers and custom roles read the figures and copy links.
 */
export const CAMPAIGN_NAMING_ROLES = [
  'administrator',
  'editor',
  'developer',
  'contributor',
] as const

/** Usual sources and their medium, offered as choices. */
export const CAMPAIGN_CHANNELS = [
  { source: 'newsletter', medium: 'email', label: 'Newsletter (e-mail)' },
  { source: 'instagram', medium: 'social', label: 'Instagram' },
  { source: 'linkedin', medium: 'social', label: 'LinkedIn' },
  { source: 'google', medium: 'cpc', label: 'Anúncio no Google' },
  { source: 'whatsapp', medium: 'mensagem', label: 'Mensagem de WhatsApp' },
  { source: 'qrcode', medium: 'impresso', label: 'QR code em material impresso' },
] as const

/**
 * A tag value as the counts read it best: lower case, no accents, words joined by hyphens, at most
 * 100 characters (the counts keep 100). "Black Friday 2026!" becomes "black-friday-2026".
 */
export function tagValue(value: string): string {
  return slugify(value, TAG_MAX_LENGTH, '_')
}

/** The tagged link, or the problem with the input, in Portuguese. */
export function campaignLink(
  input: CampaignLinkInput,
): { ok: true; url: string } | { ok: false; problem: string } {
  const campaign = tagValue(input.campaign)
  const source = tagValue(input.source)
  const medium = tagValue(input.medium)
  if (!campaign) return { ok: false, problem: 'Dê um nome à campanha (por exemplo black-friday).' }
  if (!source) return { ok: false, problem: 'Diga de onde virão as visitas (a origem).' }
  const path = input.path.trim() || '/'
  if (!/^\/(?!\/)[^\s?#]*$/.test(path))
    return { ok: false, problem: 'A página deve ser um caminho do site, começando com /.' }
  let site: URL
  let url: URL
  try {
    site = new URL(input.origin)
    url = new URL(path, site)
  } catch {
    return { ok: false, problem: 'O endereço do site não é válido.' }
  }
  // Judged by where the link lands, not by how the path reads: a URL parser takes "/\evil.com"
  // as the host evil.com, and no pattern of ours should have to know every such rule.
  if (url.origin !== site.origin)
    return {
      ok: false,
      problem: `O link levaria para fora do site. Use um caminho de ${site.origin}, como /p/onibus.`,
    }
  const tags: Record<UtmKey, string> = {
    utm_source: source,
    utm_medium: medium,
    utm_campaign: campaign,
  }
  // The medium may be left out; source and campaign are never empty here.
  for (const key of UTM_KEYS) if (tags[key]) url.searchParams.set(key, tags[key])
  return { ok: true, url: url.toString() }
}

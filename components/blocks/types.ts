import type { CampaignPage, SiteSettings } from '@/lib/content'

/** One block of a campaign page, as CAMPAIGN_PAGE_QUERY projects it (a union on `_type`). */
export type PageBlock = NonNullable<CampaignPage['blocks']>[number]
export type BlockType = PageBlock['_type']
export type BlockOf<T extends BlockType> = Extract<PageBlock, { _type: T }>

/** What every block may need besides its own fields. */
export type BlockContext = {
  settings: SiteSettings | null
  /** The campaign page's slug: the form stores it with the lead. */
  pageSlug: string
}

export type BlockProps<T extends BlockType> = { block: BlockOf<T>; context: BlockContext }

/** The anchor the form always has, so that "#contato" buttons lead to it as on the home page. */
export const FORM_ANCHOR = 'contato'

/** The block's section id: #contato for the form, a stable one from the block's key otherwise. */
export function blockAnchor(block: { _key: string; _type: string }): string {
  return block._type === 'demoFormBlock' ? FORM_ANCHOR : `bloco-${block._key}`
}

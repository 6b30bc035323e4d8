import type { DocumentActionComponent, DocumentActionProps, SanityDocumentLike } from 'sanity'

import { SLUG_MAX_LENGTH } from '../lib/paths'

/** The address a copy gets: the original's plus "-copia", within the slug's length. */
export function copyAddress(slug: string): string {
  const suffix = '-copia'
  return `${slug.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`
}

/**
 * Sanity's duplicate action for a routed type, the copy (mapDocument) at an address of its own: with the
 * original's it opened invalid ("already the address of…"), and a publish clicked while that
 * first check was still running was cancelled by it, after the editor had renamed the copy.
 */
export function withOwnAddress(duplicate: DocumentActionComponent): DocumentActionComponent {
  const DuplicateWithOwnAddress: DocumentActionComponent = (props) =>
    duplicate({ ...props, mapDocument } as DocumentActionProps)
  DuplicateWithOwnAddress.action = duplicate.action
  return DuplicateWithOwnAddress
}

/** The copy: its own address, and its blocks without the variants of the original's experiment. */
export function mapDocument(document: SanityDocumentLike): SanityDocumentLike {
  const { slug, blocks } = document as { slug?: { current?: string }; blocks?: unknown }
  return {
    ...document,
    ...(slug?.current ? { slug: { ...slug, current: copyAddress(slug.current) } } : {}),
    // An experiment runs on one page: the copy starts as the page is, with no variant.
    ...(Array.isArray(blocks)
      ? {
          blocks: blocks.map((block: object) =>
            Object.fromEntries(
              Object.entries(block).filter(([key]) => key !== 'experimentVariants'),
            ),
          ),
        }
      : {}),
  }
}

import type { DocumentActionComponent, DocumentActionProps, SanityDocumentLike } from 'sanity'

import { SLUG_MAX_LENGTH } from '../lib/paths'

/** The address a copy gets: the original's plus "-copia", within the slug's length. */
export function copyAddress(slug: string): string {
  const suffix = '-copia'
  return `${slug.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`
}

/**
 * Sanity's duplicate action for a routed type, the copy at an address of its own: with the
 * original's it opened invalid ("already the address of…"), and a publish clicked while that
 * first check was still running was cancelled by it, after the editor had renamed the copy.
 */
export function withOwnAddress(duplicate: DocumentActionComponent): DocumentActionComponent {
  const DuplicateWithOwnAddress: DocumentActionComponent = (props) =>
    duplicate({ ...props, mapDocument } as DocumentActionProps)
  DuplicateWithOwnAddress.action = duplicate.action
  return DuplicateWithOwnAddress
}

function mapDocument(document: SanityDocumentLike): SanityDocumentLike {
  const slug = (document as { slug?: { current?: string } }).slug
  return slug?.current
    ? { ...document, slug: { ...slug, current: copyAddress(slug.current) } }
    : document
}

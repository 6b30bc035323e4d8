import { defineField, defineType } from 'sanity'

import { ROUTED_TYPE_LIST } from '../lib/routed-type-rules'

// A review link (sanity/actions/review-link.tsx makes them): lets someone without a Studio login
// see one campaign page's or article's draft at /revisao/<token> until it expires or is revoked. The token
// itself is never stored, only its SHA-256 hash, and the document lives under a private id path
// (review-links.*), readable only with a token: the editor's session or the site's read token.
export const reviewLinkType = defineType({
  name: 'reviewLink',
  title: 'Link de revisão',
  type: 'document',
  readOnly: true,
  fields: [
    defineField({
      name: 'page',
      title: 'Página, artigo ou material',
      type: 'reference',
      // Every routed type whose definition offers review links (sanity/routed-type-definitions.ts).
      to: ROUTED_TYPE_LIST.flatMap((routed) =>
        routed.studio?.reviewLinks && routed.documentType ? [{ type: routed.documentType }] : [],
      ),
      // The page or article may exist only as a draft.
      weak: true,
    }),
    defineField({ name: 'tokenHash', title: 'Hash do token (SHA-256)', type: 'string' }),
    defineField({ name: 'expiresAt', title: 'Vale até', type: 'datetime' }),
    defineField({ name: 'revoked', title: 'Revogado', type: 'boolean' }),
    defineField({ name: 'createdBy', title: 'Criado por', type: 'string' }),
  ],
  preview: {
    select: { title: 'page.title', expiresAt: 'expiresAt', revoked: 'revoked' },
    prepare: ({ title, expiresAt, revoked }) => ({
      title: title ?? 'Página sem título',
      subtitle: revoked ? 'Revogado' : `Vale até ${expiresAt ?? '?'}`,
    }),
  },
})

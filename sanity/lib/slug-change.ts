import { articlePath, campaignPath } from './paths'

type Redirect = { _id: string; from?: string | null; to?: string | null }

export type RedirectMutation =
  | {
      createOrReplace: { _id: string; _type: 'redirect'; from: string; to: string; permanent: true }
    }
  | { patch: { id: string; set: { to: string } } }

/** The document types whose slug change writes a redirect, and the path each slug gives. */
export const SLUG_PATHS = {
  campaignPage: { path: campaignPath, idPrefix: 'redirect-p-' },
  article: { path: articlePath, idPrefix: 'redirect-conteudos-' },
} as const

export type RedirectingType = keyof typeof SLUG_PATHS

/**
 * What publishing a campaign page (or an article) under a new slug does to the redirects, so old links keep
 * working without an editor remembering to add one: a permanent redirect from the old address to
 * the new one, and every redirect that led to the old address now leads straight to the new one
 * (no chains). Nothing when the slug did not change or the page was never published.
 */
export function redirectsForSlugChange(
  previous: string | undefined,
  next: string | undefined,
  existing: Redirect[],
  type: RedirectingType = 'campaignPage',
): RedirectMutation[] {
  if (!previous || !next || previous === next) return []
  const { path, idPrefix } = SLUG_PATHS[type]
  const from = path(previous)
  const to = path(next)
  return [
    ...existing
      .filter((redirect) => redirect.to === from && !redirect._id.startsWith('drafts.'))
      .map((redirect) => ({ patch: { id: redirect._id, set: { to } } })),
    {
      createOrReplace: {
        _id: `${idPrefix}${previous}`,
        _type: 'redirect' as const,
        from,
        to,
        permanent: true as const,
      },
    },
  ]
}

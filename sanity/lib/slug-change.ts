import { routedPath, slugChangeRedirectId, type RoutedTypeName } from './routed-type-rules'

type Redirect = { _id: string; from?: string | null; to?: string | null }

export type RedirectMutation =
  | {
      createOrReplace: { _id: string; _type: 'redirect'; from: string; to: string; permanent: true }
    }
  | { patch: { id: string; set: { to: string } } }

/** A routed type whose renamed documents leave a redirect from the old address (redirectable). */
export type RedirectingType = RoutedTypeName

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
  const from = routedPath(type, previous)
  const to = routedPath(type, next)
  return [
    ...existing
      .filter((redirect) => redirect.to === from && !redirect._id.startsWith('drafts.'))
      .map((redirect) => ({ patch: { id: redirect._id, set: { to } } })),
    {
      createOrReplace: {
        _id: slugChangeRedirectId(type, previous),
        _type: 'redirect' as const,
        from,
        to,
        permanent: true as const,
      },
    },
  ]
}

import { useClient, type DocumentActionComponent, type SlugValue } from 'sanity'

import { routedPath } from '../lib/routed-type-rules'
import { redirectsForSlugChange, type RedirectingType } from '../lib/slug-change'

/**
 * Sanity's own publish action for campaign pages and articles, plus: when the published page's slug changes,
 * the redirect from the old address (and the redirects that led there) are written in the same
 * moment, so links already shared keep working. https://www.sanity.io/docs/document-actions
 */
export function withSlugChangeRedirect(
  publish: DocumentActionComponent,
  type: RedirectingType = 'campaignPage',
): DocumentActionComponent {
  const PublishWithRedirect: DocumentActionComponent = (props) => {
    const client = useClient({ apiVersion: '2025-02-19' })
    const original = publish(props)
    if (!original) return original
    return {
      ...original,
      onHandle: async () => {
        const slugOf = (doc: unknown) => (doc as { slug?: SlugValue } | null)?.slug?.current
        const previous = slugOf(props.published)
        const next = slugOf(props.draft)
        if (previous && next && previous !== next) {
          const existing = await client.fetch<Array<{ _id: string; from: string; to: string }>>(
            `*[_type == "redirect" && to == $to]{_id, from, to}`,
            { to: routedPath(type, previous) },
          )
          const mutations = redirectsForSlugChange(previous, next, existing, type)
          if (mutations.length > 0) await client.mutate(mutations as never)
        }
        original.onHandle?.()
      },
    }
  }
  PublishWithRedirect.action = publish.action
  return PublishWithRedirect
}

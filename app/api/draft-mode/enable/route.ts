import { defineEnableDraftMode } from 'next-sanity/draft-mode'

import { serverEnv } from '@/lib/env'
import { isSanityConfigured } from '@/sanity/env'

/**
 * The Presentation tool in the Studio opens the site through this route with a short-lived
 * secret it stored in the dataset; defineEnableDraftMode checks that secret with a token-bearing
 * client, sets Next's draft-mode cookie and redirects to the page being previewed.
 */
export async function GET(request: Request) {
  if (!isSanityConfigured) {
    return new Response('Draft mode needs a Sanity project (NEXT_PUBLIC_SANITY_PROJECT_ID).', {
      status: 404,
    })
  }
  if (!serverEnv.sanityApiReadToken) {
    console.error(
      '[draft-mode] SANITY_API_READ_TOKEN is not set: draft mode cannot read drafts, so it stays off.',
    )
    return new Response('Draft mode is not configured on this server.', { status: 500 })
  }
  const { draftModeClient } = await import('@/lib/content/sanity-client')
  return defineEnableDraftMode({ client: draftModeClient() }).GET(request)
}

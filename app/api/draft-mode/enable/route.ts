import { defineEnableDraftMode } from 'next-sanity/draft-mode'

import { serverEnv } from '@/lib/env'
import { sitePath } from '@/lib/site-path'
import { isSanityConfigured } from '@/sanity/env'

/** The query parameter @sanity/preview-url-secret reads the page to preview from. */
const PREVIEW_PATHNAME_PARAM = 'sanity-preview-pathname'

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
  // Where the Studio asks to land once draft mode is on: only a path of this site, judged by the
  // URL it resolves to (lib/site-path.ts: never "//host", "/\\host", "/.//host", an encoded form
  // of them or an absolute URL), and handed on normalised, since defineEnableDraftMode redirects
  // to the path it resolves (docs/security.md).
  const url = new URL(request.url)
  const target = url.searchParams.get(PREVIEW_PATHNAME_PARAM)
  const landing = target === null ? undefined : sitePath(target)
  if (target !== null && landing === undefined) {
    console.warn('[draft-mode] Refused a preview target that is not a path of this site.')
    return new Response('O destino da pré-visualização precisa ser um caminho deste site.', {
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    })
  }
  if (landing !== undefined) url.searchParams.set(PREVIEW_PATHNAME_PARAM, landing)
  const { draftModeClient } = await import('@/lib/content/sanity-client')
  return defineEnableDraftMode({ client: draftModeClient() }).GET(new Request(url, request))
}

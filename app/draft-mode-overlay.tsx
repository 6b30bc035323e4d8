import { draftMode } from 'next/headers'

import { isSanityConfigured } from '@/sanity/env'

/**
 * What an editor previewing drafts gets on top of the page: Sanity's click-to-edit overlays and
 * a way out of draft mode. Visitors never have the draft-mode cookie, so for them this renders
 * nothing, and the overlay's client code is imported only on this branch: it is not referenced
 * by the public page's HTML or its scripts.
 */
export async function DraftModeOverlay() {
  if (!isSanityConfigured) return null
  const { isEnabled } = await draftMode()
  if (!isEnabled) return null
  const { VisualEditing } = await import('next-sanity/visual-editing')
  return (
    <>
      <VisualEditing />
      <a
        href="/api/draft-mode/disable"
        className="fixed right-3 bottom-3 z-50 rounded-md bg-navy-950 px-3 py-2 text-sm font-semibold text-white shadow-lg"
      >
        Modo rascunho: sair
      </a>
    </>
  )
}

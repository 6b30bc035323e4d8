import { VisualEditing } from 'next-sanity/visual-editing'

/**
 * What an editor previewing drafts gets on top of the page: Sanity's click-to-edit overlays (they
 * read the stega-encoded strings draft-mode fetches return) and a way out of draft mode.
 */
export function DraftModeOverlay() {
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

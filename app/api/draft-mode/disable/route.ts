import { draftMode } from 'next/headers'
import { redirect } from 'next/navigation'

/** Leaves draft mode (clears Next's bypass cookie) and goes back to the public page. */
export async function GET() {
  const draft = await draftMode()
  draft.disable()
  // A relative redirect: behind a proxy the request's own URL can name an internal host.
  redirect('/')
}

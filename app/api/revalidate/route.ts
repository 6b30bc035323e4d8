import { revalidateTag } from 'next/cache'
import { NextResponse, type NextRequest } from 'next/server'
import { parseBody } from 'next-sanity/webhook'

import { tagForType } from '@/lib/content/tags'
import { serverEnv } from '@/lib/env'

/**
 * Sanity's GROQ-powered webhook lands here when an editor publishes, unpublishes or deletes a
 * document (set-up in the README). It expires the cache tag of the document's type, so the next
 * visitor gets a page rendered from the new content while nobody else's request touches the
 * Content Lake.
 *
 * Status codes: 500 secret not configured; 401 missing, wrong or stale signature; 400 a signed
 * body that is not JSON or has no _type; 200 otherwise, with the tags revalidated (an empty list
 * for a type the site does not show: a 2xx so Sanity does not keep retrying it).
 */

const SIGNATURE_HEADER = 'sanity-webhook-signature'
// A captured request replayed later must not work forever: Sanity signs "t=<ms>,v1=<hmac>" over
// the timestamp and the body, so a valid signature with an old timestamp is a replay.
export const MAX_SIGNATURE_AGE_MS = 5 * 60 * 1000
// The Content Lake is eventually consistent: a query right after the webhook can still see the
// previous revision. Wait as long as next-sanity's parseBody would before expiring the cache.
export const CONSISTENCY_DELAY_MS = 3000

type WebhookPayload = { _type?: unknown; _id?: unknown }

function reply(status: number, body: Record<string, unknown>) {
  return NextResponse.json(body, { status })
}

function signatureTimestamp(signature: string): number | undefined {
  const match = signature.trim().match(/^t=(\d+)[, ]+v1=/)
  return match ? Number(match[1]) : undefined
}

export async function POST(request: NextRequest) {
  const secret = serverEnv.sanityRevalidateSecret
  if (!secret) {
    console.error(
      '[revalidate] SANITY_REVALIDATE_SECRET is not set, so webhook calls cannot be verified and are all refused. Set it to the secret of the Sanity webhook.',
    )
    return reply(500, { message: 'Webhook secret not configured' })
  }

  const signature = request.headers.get(SIGNATURE_HEADER)
  if (!signature) return reply(401, { message: 'Missing signature' })

  // parseBody throws on a body that is not JSON; kept aside to tell a bad body from a bad signature.
  const copy = request.clone()
  let parsed: Awaited<ReturnType<typeof parseBody<WebhookPayload>>>
  try {
    parsed = await parseBody<WebhookPayload>(request, secret, false)
  } catch {
    const { isValidSignature } = await import('@sanity/webhook')
    const signed = await isValidSignature(await copy.text(), signature, secret)
    return signed ? reply(400, { message: 'Body is not JSON' }) : reply(401, { message: 'Invalid signature' })
  }
  if (parsed.isValidSignature !== true) return reply(401, { message: 'Invalid signature' })

  const timestamp = signatureTimestamp(signature)
  if (timestamp === undefined || Math.abs(Date.now() - timestamp) > MAX_SIGNATURE_AGE_MS) {
    console.warn('[revalidate] refused a correctly signed webhook with a stale timestamp (replay?)')
    return reply(401, { message: 'Stale signature timestamp' })
  }

  const type = parsed.body?._type
  if (typeof type !== 'string') {
    return reply(400, { message: 'Body has no _type: set the webhook projection to {_type, _id}' })
  }
  const tag = tagForType(type)
  if (!tag) return reply(200, { revalidated: [], message: `No cache tag for type "${type}"` })

  await new Promise((resolve) => setTimeout(resolve, CONSISTENCY_DELAY_MS))
  // expire: 0, not 'max': the next visitor waits for a fresh render instead of getting the old
  // page once more while it regenerates in the background. If the Content Lake cannot be reached
  // then, the render fails and Next keeps serving the last good page.
  revalidateTag(tag, { expire: 0 })
  console.info(`[revalidate] ${tag} (${type} ${String(parsed.body?._id ?? '')})`)
  return reply(200, { revalidated: [tag], type, id: parsed.body?._id ?? null })
}

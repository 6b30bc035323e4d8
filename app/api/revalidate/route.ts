import { revalidateTag } from 'next/cache'
import { after, NextResponse, type NextRequest } from 'next/server'

import { purgePublicPages } from '@/lib/cdn/purge'
import { tagForType } from '@/lib/content/tags'
import { serverEnv } from '@/lib/env'
import { BodyTooLargeError, readLimitedText } from '@/lib/limited-body'
import { ownOrigin } from '@/lib/own-origin'
import { shareRevalidation } from '@/lib/redis/connection.mjs'
import { publishPlan, type PublishedChange, type PublishPlan } from '@/lib/routed-type-plans'
import { internalHeaders, ROUTING_TABLE_PATH } from '@/lib/security/internal-request'
import { claimDelivery } from '@/lib/webhook/replay'
import { checkSignature } from '@/lib/webhook/signature'

/**
 * Sanity's webhook, on each publish, unpublish or delete: marks stale what the document changes
 * (publishPlan), here and through Redis on every instance, then renders those pages at once and
 * purges the CDN, so no visitor's request waits on the Content Lake. Its answers: docs/content.md,
 * "Publishing: the webhook"; the path of a publish: docs/publishing.md.
 */

const SIGNATURE_HEADER = 'sanity-webhook-signature'
/** The largest webhook body read: Sanity's projection here is a few hundred bytes. */
const MAX_WEBHOOK_BODY_BYTES = 64 * 1024
// A captured request replayed later must not work forever: Sanity signs "t=<ms>,v1=<hmac>" over
// the timestamp and the body, so a valid signature with an old timestamp is a replay.
export const MAX_SIGNATURE_AGE_MS = 5 * 60 * 1000
// The Content Lake is eventually consistent: a query right after the webhook can still see the
// previous revision. Wait as long as next-sanity's parseBody would (3 s) before expiring the
// cache; SANITY_WEBHOOK_CONSISTENCY_DELAY_MS lowers it for the end-to-end builds only.
export const DEFAULT_CONSISTENCY_DELAY_MS = 3000

type WebhookPayload = { _type?: unknown; _id?: unknown; slug?: unknown; before?: unknown }

/**
 * The warm-up requests at most this many pages, this many at a time: a publish regenerates what
 * shows the document, never the whole site in a row (the rest regenerates on its next visit).
 */
export const WARM_LIMIT = 16
export const WARM_CONCURRENCY = 2

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
const texts = (value: unknown) =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : undefined

/** The change as the documented projection gives it; anything else in the body is ignored. */
function changeOf(type: string, body: WebhookPayload): PublishedChange {
  const before =
    body.before && typeof body.before === 'object'
      ? (body.before as Record<string, unknown>)
      : undefined
  return {
    type,
    id: text(body._id) ?? '',
    slug: text(body.slug),
    before: before && {
      slug: text(before.slug),
      publishedAt: text(before.publishedAt),
      categories: texts(before.categories),
    },
  }
}

function reply(status: number, body: Record<string, unknown>) {
  return NextResponse.json(body, { status })
}

export async function POST(request: NextRequest) {
  const secret = serverEnv.sanityRevalidateSecret
  if (!secret) {
    console.error(
      '[revalidate] SANITY_REVALIDATE_SECRET is not set, so webhook calls cannot be verified and are all refused. Set it to the secret of the Sanity webhook.',
    )
    return reply(500, { message: 'Webhook secret not configured' })
  }

  let text: string
  try {
    text = await readLimitedText(request, MAX_WEBHOOK_BODY_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      return reply(413, { message: `Body larger than ${MAX_WEBHOOK_BODY_BYTES} bytes` })
    }
    throw error
  }

  const signature = request.headers.get(SIGNATURE_HEADER)
  if (!signature) return reply(401, { message: 'Missing signature' })
  const checked = await checkSignature(text, signature, secret)
  if (!checked.valid) return reply(401, { message: 'Invalid signature' })

  if (Math.abs(Date.now() - checked.timestamp) > MAX_SIGNATURE_AGE_MS) {
    console.warn('[revalidate] refused a correctly signed webhook with a stale timestamp (replay?)')
    return reply(401, { message: 'Stale signature timestamp' })
  }

  let body: WebhookPayload | undefined
  try {
    body = JSON.parse(text) as WebhookPayload
  } catch {
    return reply(400, { message: 'Body is not JSON' })
  }
  const type = body?._type
  if (typeof type !== 'string') {
    return reply(400, { message: 'Body has no _type: set the webhook projection to {_type, _id}' })
  }
  if (!tagForType(type))
    return reply(200, { revalidated: [], message: `No cache tag for type "${type}"` })

  // Kept a little longer than the window in which the signature is accepted at all.
  const claim = await claimDelivery(
    checked.timestamp,
    checked.hashedPayload,
    MAX_SIGNATURE_AGE_MS + 60_000,
    request.headers.get('idempotency-key'),
  )
  if (!claim.fresh) {
    console.info(`[revalidate] ignored a repeat of a webhook already handled (${type})`)
    return reply(200, { revalidated: [], message: 'Already handled' })
  }

  await new Promise((resolve) => setTimeout(resolve, serverEnv.webhookConsistencyDelayMs))
  const plan = (await publishPlan(changeOf(type, body)))!
  const { tags } = plan
  // 'max' (stale-while-revalidate), not { expire: 0 }: an expired page is re-rendered while the
  // visitor waits, and if the Content Lake is down at that moment every visitor gets a 500 until
  // it is back. Marked stale, the last good page keeps being served and the regeneration is
  // retried on later requests; a failed one changes nothing.
  for (const tag of tags) revalidateTag(tag, 'max')
  // With several instances, the publish counts only once Redis has it: otherwise the others
  // would never learn of it, and Sanity, told it succeeded, would never send it again.
  let shareFailure: string | undefined
  if (serverEnv.redisUrl) {
    try {
      await shareRevalidation(tags)
    } catch (error) {
      shareFailure = error instanceof Error ? error.message : String(error)
    }
  }

  warmAndPurge(plan)

  if (shareFailure !== undefined) {
    // Not remembered as handled: Sanity's retry of this very delivery must do the work.
    await claim.release()
    console.warn(
      `[revalidate] ${logged(tags)} revalidated on this instance only: Redis did not take it (${shareFailure}). ` +
        'Answered 503 so that Sanity retries; the other instances catch up within the fallback period.',
    )
    return reply(503, {
      message: 'Revalidated on this instance only: the other instances could not be told (Redis)',
      reason: shareFailure,
      revalidatedHere: tags,
    })
  }
  console.info(`[revalidate] ${logged(tags)} (${type} ${String(body._id ?? '')})`)
  return reply(200, { revalidated: tags, type, id: body._id ?? null })
}

/** Requests one page on this instance's own origin so it regenerates now; never throws. */
async function warm(path: string) {
  const page = new URL(path, ownOrigin())
  // The internal secret goes to this server only: a path that names another host is not warmed.
  if (!path.startsWith('/') || page.origin !== new URL(ownOrigin()).origin) {
    console.warn(`[revalidate] did not warm ${JSON.stringify(path)}: not a path of this site.`)
    return
  }
  try {
    const response = await fetch(page, {
      cache: 'no-store',
      // The secret lets the routing table (/api/redirects) answer: it is internal only.
      headers: { 'user-agent': 'vigia-revalidate-warmup', ...internalHeaders() },
      // Never followed: a redirect document's path answers 307/308 to wherever it points (an
      // allowed host such as wa.me), and fetch would carry the secret there. The redirect answer
      // itself is what that path serves, so it counts as warmed.
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    })
    await response.body?.cancel()
  } catch (error) {
    console.warn(`[revalidate] could not request ${page.href} to regenerate it:`, error)
  }
}

/**
 * After the response: the CDN in front (if CDN_PURGE_URL is set) is told at once to drop the
 * changed pages, and meanwhile this instance renders them (through its own origin, never the
 * public host, whose front would send the request to any instance and cache): at most
 * WARM_LIMIT pages, WARM_CONCURRENCY at a time, in the plan's order.
 */
function warmAndPurge(plan: PublishPlan) {
  after(async () => {
    const purge = serverEnv.cdnPurgeUrl
      ? purgePublicPages(serverEnv.siteUrl, {
          paths: plan.paths.filter((path) => path !== ROUTING_TABLE_PATH),
          prefixes: plan.purgePrefixes,
        })
      : Promise.resolve()
    // In the plan's order, WARM_CONCURRENCY at a time: the routing table (the slugs that exist)
    // and the changed page itself go first, together.
    const paths = plan.paths.slice(0, WARM_LIMIT)
    let next = 0
    const warmUp = Promise.all(
      Array.from({ length: WARM_CONCURRENCY }, async () => {
        while (next < paths.length) await warm(paths[next++]!)
      }),
    )
    await Promise.all([purge, warmUp])
  })
}

/** A log line's list of tags: a category of 1,000 articles revalidates 1,000 of them. */
function logged(tags: string[], shown = 10): string {
  const more = tags.length - shown
  return more > 0 ? `${tags.slice(0, shown).join(' ')} (+${more} more)` : tags.join(' ')
}

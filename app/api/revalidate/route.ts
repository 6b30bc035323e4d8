import { revalidateTag } from 'next/cache'
import { after, NextResponse, type NextRequest } from 'next/server'

import { purgePublicPages } from '@/lib/cdn/purge'
import {
  articlePublishPaths,
  getCampaignPageSlugs,
  getLegalPageSlugs,
  getRedirectPaths,
} from '@/lib/content'
import { ARTICLE_CONTENT_TYPES, pathsToWarm, tagForType } from '@/lib/content/tags'
import { serverEnv } from '@/lib/env'
import { ownOrigin } from '@/lib/own-origin'
import { shareRevalidation } from '@/lib/redis/connection.mjs'
import { internalHeaders } from '@/lib/security/internal-request'
import { BodyTooLargeError, MAX_WEBHOOK_BODY_BYTES, readLimitedText } from '@/lib/webhook/body'
import { claimDelivery } from '@/lib/webhook/replay'
import { checkSignature } from '@/lib/webhook/signature'
import { campaignPath } from '@/sanity/lib/paths'

/**
 * Sanity's GROQ-powered webhook lands here when an editor publishes, unpublishes or deletes a
 * document (docs/publishing.md). It marks the cache tag of the document's type stale, on this
 * instance and (with REDIS_URL) on every other one through Redis, and has the page that shows it
 * regenerated at once, so visitors get the new content within seconds while no visitor's request
 * ever waits on (or fails with) the Content Lake.
 *
 * Status codes: 500 secret not configured; 413 a body over 64 KB (never read whole); 401
 * missing, wrong or stale signature; 400 a signed body that is not JSON or has no _type; 503
 * revalidated on this instance only, because Redis did not take it (Sanity retries a 5xx,
 * possibly reaching another instance); 200 otherwise, with the tags revalidated (an empty list
 * for a type the site does not show, so Sanity does not keep retrying it), or a replay of a
 * delivery already handled.
 */

const SIGNATURE_HEADER = 'sanity-webhook-signature'
// A captured request replayed later must not work forever: Sanity signs "t=<ms>,v1=<hmac>" over
// the timestamp and the body, so a valid signature with an old timestamp is a replay.
export const MAX_SIGNATURE_AGE_MS = 5 * 60 * 1000
// The Content Lake is eventually consistent: a query right after the webhook can still see the
// previous revision. Wait as long as next-sanity's parseBody would (3 s) before expiring the
// cache; SANITY_WEBHOOK_CONSISTENCY_DELAY_MS lowers it for the end-to-end builds only.
export const DEFAULT_CONSISTENCY_DELAY_MS = 3000

type WebhookPayload = { _type?: unknown; _id?: unknown; slug?: unknown }

function reply(status: number, body: Record<string, unknown>) {
  return NextResponse.json(body, { status })
}

/** Every legal and campaign page's path, read fresh; none when the Content Lake does not answer. */
async function publicPagePaths(): Promise<string[]> {
  const [legal, campaign] = await Promise.all([
    getLegalPageSlugs({ fresh: true }).catch(() => []),
    getCampaignPageSlugs({ fresh: true }).catch(() => []),
  ])
  return [
    ...legal.flatMap((page) => (page.slug ? [`/${page.slug}`] : [])),
    ...campaign.flatMap((page) => (page.slug ? [campaignPath(page.slug)] : [])),
  ]
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
    text = await readLimitedText(request)
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
  const tag = tagForType(type)
  if (!tag) return reply(200, { revalidated: [], message: `No cache tag for type "${type}"` })

  // Kept a little longer than the window in which the signature is accepted at all.
  const claim = await claimDelivery(
    checked.timestamp,
    checked.hashedPayload,
    MAX_SIGNATURE_AGE_MS + 60_000,
  )
  if (!claim.fresh) {
    console.info(`[revalidate] ignored a repeat of a webhook already handled (${type})`)
    return reply(200, { revalidated: [], message: 'Already handled' })
  }

  await new Promise((resolve) => setTimeout(resolve, serverEnv.webhookConsistencyDelayMs))
  // 'max' (stale-while-revalidate), not { expire: 0 }: an expired page is re-rendered while the
  // visitor waits, and if the Content Lake is down at that moment every visitor gets a 500 until
  // it is back. Marked stale, the last good page keeps being served and the regeneration is
  // retried on later requests; a failed one changes nothing.
  revalidateTag(tag, 'max')
  // With several instances, the publish counts only once Redis has it: otherwise the others
  // would never learn of it, and Sanity, told it succeeded, would never send it again.
  let shareFailure: string | undefined
  if (serverEnv.redisUrl) {
    try {
      await shareRevalidation([tag])
    } catch (error) {
      shareFailure = error instanceof Error ? error.message : String(error)
    }
  }

  warmAndPurge(type, body.slug)

  if (shareFailure !== undefined) {
    // Not remembered as handled: Sanity's retry of this very delivery must do the work.
    await claim.release()
    console.warn(
      `[revalidate] ${tag} revalidated on this instance only: Redis did not take it (${shareFailure}). ` +
        'Answered 503 so that Sanity retries; the other instances catch up within the fallback period.',
    )
    return reply(503, {
      message: 'Revalidated on this instance only: the other instances could not be told (Redis)',
      reason: shareFailure,
      revalidatedHere: [tag],
    })
  }
  console.info(`[revalidate] ${tag} (${type} ${String(body._id ?? '')})`)
  return reply(200, { revalidated: [tag], type, id: body._id ?? null })
}

/**
 * After the response: this instance renders the changed pages at once (through its own origin,
 * never the public host, whose front would send the request to any instance and cache), then
 * the CDN in front (if CDN_PURGE_URL is set) is told to drop its copies.
 */
function warmAndPurge(type: string, slug: unknown) {
  const warm = pathsToWarm(type, slug)
  after(async () => {
    // An article, category or author shows on every article page (related articles, bylines),
    // the listing's pages and the category pages: after the changed page itself, all of them.
    const forArticles = ARTICLE_CONTENT_TYPES.has(type)
    const articlePaths =
      forArticles || type === 'announcement' || serverEnv.cdnPurgeUrl
        ? await articlePublishPaths().catch(() => [] as string[])
        : []
    // The announcement bar is on every page: have them all regenerated, not only the home page.
    const everyPage = type === 'announcement' ? [...(await publicPagePaths()), ...articlePaths] : []
    if (forArticles) warm.push(...articlePaths.filter((path) => !warm.includes(path)))
    for (const path of new Set([...warm, ...everyPage])) {
      const page = new URL(path, ownOrigin())
      try {
        await fetch(page, {
          cache: 'no-store',
          // The secret lets the routing table (/api/redirects) answer: it is internal only.
          headers: { 'user-agent': 'vigia-revalidate-warmup', ...internalHeaders() },
          signal: AbortSignal.timeout(30_000),
        })
      } catch (error) {
        console.warn(`[revalidate] could not request ${page.href} to regenerate it:`, error)
      }
    }
    // Every page (site settings are in every footer, claims in many blocks), every redirect's
    // path, and the changed page's own path (an unpublished or deleted page is in no list now).
    if (serverEnv.cdnPurgeUrl) {
      const [legalPaths, campaignPaths, redirectPaths] = await Promise.all([
        getLegalPageSlugs({ fresh: true }).then(
          (pages) => pages.flatMap((page) => (page.slug ? [`/${page.slug}`] : [])),
          () => [] as string[],
        ),
        getCampaignPageSlugs({ fresh: true }).then(
          (pages) => pages.flatMap((page) => (page.slug ? [campaignPath(page.slug)] : [])),
          () => [] as string[],
        ),
        // A redirect's projection has no slug (its path is `from`): purge every redirect's path.
        getRedirectPaths().catch(() => [] as string[]),
      ])
      await purgePublicPages(serverEnv.siteUrl, {
        paths: [...legalPaths, ...campaignPaths, ...articlePaths, ...redirectPaths, ...warm],
      })
    }
  })
}

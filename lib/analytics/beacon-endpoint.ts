import { recordView } from '@/lib/analytics'
import type { BeaconBody } from '@/lib/analytics/collect'
import { isDraftMode } from '@/lib/experiments/serve'
import { PRIVATE_PATH } from '@/lib/private-sections'
import { clientIpFrom } from '@/lib/security/client-ip'
import { checkBeaconLimits } from '@/lib/security/rate-limit'
import { BodyTooLargeError, readLimitedText } from '@/lib/limited-body'

// What POST /api/analytics/view answers (docs/analytics.md, "The beacon"): at once, counting after
// the answer has gone, and with no cookie.

/** The largest body accepted, in bytes. */
export const MAX_BEACON_BYTES = 2048

export type BeaconAnswer = { status: 204 } | { status: 400 | 413 | 415 | 429; error: string }

const EVENTS = new Set(['view', 'contact', 'read'])
const TEXTS = ['landing', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'channel']
// The reading report's, and the page load's speed (bounded by the collector, vitals.mjs).
const NUMBERS = ['seconds', 'scroll', 'lcp', 'inp', 'cls']

/** The path of a Referer ('' without one). */
function refererPathOf(referer: string | null): string {
  try {
    return referer ? new URL(referer).pathname : ''
  } catch {
    return ''
  }
}

/** The beacon's body (lib/analytics/beacon.ts), fields of the wrong type left out. */
function parseBody(text: string): BeaconBody | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const body = value as Record<string, unknown>
  if (typeof body.path !== 'string') return undefined
  const text_ = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined)
  const number = (key: string) =>
    typeof body[key] === 'number' && Number.isFinite(body[key]) ? (body[key] as number) : undefined
  const event = text_('event')
  return {
    ...Object.fromEntries(TEXTS.map((key) => [key, text_(key)])),
    ...Object.fromEntries(NUMBERS.map((key) => [key, number(key)])),
    path: body.path,
    event: event && EVENTS.has(event) ? event : 'view',
    entry: body.entry === true,
    first: body.first === true,
    // Named but not a string: kept as a variant that runs nowhere, so the beacon counts nowhere.
    ...(body.variant === undefined || body.variant === null
      ? {}
      : { variant: text_('variant') ?? '' }),
  } as BeaconBody
}

/**
 * The answer to one beacon. `later` is handed the count, to run once the answer has been sent: the
 * visitor never waits for Redis or the database.
 */
export async function answerBeacon(
  request: Request,
  later: (count: () => Promise<unknown>) => void,
): Promise<BeaconAnswer> {
  const { headers } = request
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json')
    return { status: 415, error: 'Envie a visita como application/json.' }
  let text: string
  try {
    text = await readLimitedText(request, MAX_BEACON_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return { status: 413, error: `A visita deve ter no máximo ${MAX_BEACON_BYTES} bytes.` }
    // The body broke off: the visitor left mid-body. Nobody reads this answer; nothing to log.
    return { status: 400, error: 'A visita chegou incompleta.' }
  }
  const body = parseBody(text)
  if (!body) return { status: 400, error: 'Envie um objeto JSON com "path" (o caminho da página).' }

  // A prefetch or prerender is not a view (the beacon skips them too), nor a preview (draft mode)
  // or a page of the Studio, a preview or a review link.
  const purpose = `${headers.get('sec-purpose') ?? ''} ${headers.get('purpose') ?? ''}`
  if (/prefetch|prerender/i.test(purpose) || isDraftMode(headers)) return { status: 204 }
  if (PRIVATE_PATH.test(refererPathOf(headers.get('referer')))) return { status: 204 }

  const ip = clientIpFrom(headers)
  const verdict = await checkBeaconLimits(ip)
  if (verdict !== 'ok')
    return {
      status: 429,
      error: 'Muitas visitas registradas deste endereço. Tente de novo em um minuto.',
    }

  const userAgent = headers.get('user-agent')
  later(() => recordView({ ip, userAgent, body }))
  return { status: 204 }
}

/** Never stored, by the browser or by a cache in between. */
export const BEACON_ANSWER_HEADERS = { 'cache-control': 'no-store' } as const

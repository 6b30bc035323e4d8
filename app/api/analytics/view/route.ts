import { after } from 'next/server'

import { recordView } from '@/lib/analytics'
import type { BeaconBody } from '@/lib/analytics/collect'
import { clientIpFrom } from '@/lib/security/client-ip'
import { checkBeaconLimits } from '@/lib/security/rate-limit'
import { BodyTooLargeError, readLimitedText } from '@/lib/webhook/body'

// The visit beacon (docs/analytics.md): answers at once, counts after the answer has gone, sets
// no cookie. Only POST is routed; Next answers any other method with 405.

export const dynamic = 'force-dynamic'

/** The largest body accepted, in bytes. */
const MAX_BEACON_BYTES = 2048

const NO_STORE = { 'cache-control': 'no-store' }

function refuse(status: number, error: string) {
  return Response.json({ error }, { status, headers: NO_STORE })
}

/** The body, or undefined once it is longer than MAX_BEACON_BYTES (read no further). */
async function readLimited(request: Request): Promise<string | undefined> {
  try {
    return await readLimitedText(request, MAX_BEACON_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLargeError) return undefined
    throw error
  }
}

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
  return {
    path: body.path,
    referrer: text_('referrer'),
    utm_source: text_('utm_source'),
    utm_medium: text_('utm_medium'),
    utm_campaign: text_('utm_campaign'),
  }
}

export async function POST(request: Request) {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json') return refuse(415, 'Envie a visita como application/json.')
  const text = await readLimited(request)
  if (text === undefined)
    return refuse(413, `A visita deve ter no máximo ${MAX_BEACON_BYTES} bytes.`)
  const body = parseBody(text)
  if (!body) return refuse(400, 'Envie um objeto JSON com "path" (o caminho da página).')

  // A prefetch or prerender is not a view (the beacon skips them too).
  const purpose = `${request.headers.get('sec-purpose') ?? ''} ${request.headers.get('purpose') ?? ''}`
  if (/prefetch|prerender/i.test(purpose))
    return new Response(null, { status: 204, headers: NO_STORE })

  const ip = clientIpFrom(request.headers)
  const verdict = await checkBeaconLimits(ip)
  if (verdict !== 'ok')
    return refuse(429, 'Muitas visitas registradas deste endereço. Tente de novo em um minuto.')

  const userAgent = request.headers.get('user-agent')
  // Counted once the answer is sent: the visitor never waits for Redis or the database. 204, not
  // 202: with no body allowed the answer ends with its headers, while a 202's empty chunked body
  // stayed open until after() finished and Chromium aborted the keepalive request meanwhile.
  after(() => recordView({ ip, userAgent, body }))
  return new Response(null, { status: 204, headers: NO_STORE })
}

import { checkReader, checkWriter, nameCampaign, namedCampaigns } from '@/lib/analytics'
import { tagValue } from '@/lib/analytics/campaign-link'
import { clientIpFrom, rateLimitKeyFor } from '@/lib/security/client-ip'

// Campaigns named in the Studio (the Desempenho tool's link builder, docs/analytics.md): a named
// campaign is always counted under its own name, however many invented ones came first. GET
// lists them (ANALYTICS_READ_TOKEN or a Studio user), POST {"campaign"} names one (only a Studio
// user whose role can write: a name changes what is counted, which no read credential may do).

export const dynamic = 'force-dynamic'

const PRIVATE = { 'cache-control': 'private, no-store' }

function refuse(status: number, error: string) {
  return Response.json({ error }, { status, headers: PRIVATE })
}

async function allowed(request: Request, check: typeof checkReader) {
  return check(request.headers.get('authorization'), rateLimitKeyFor(clientIpFrom(request.headers)))
}

const UNAVAILABLE = 'O banco de dados não respondeu. Tente de novo em instantes.'

export async function GET(request: Request) {
  const check = await allowed(request, checkReader)
  if (!check.ok) return refuse(check.status, check.error)
  try {
    return Response.json({ campaigns: await namedCampaigns() }, { headers: PRIVATE })
  } catch (error) {
    console.error(`[analytics] The named campaigns could not be read: ${String(error)}`)
    return refuse(503, UNAVAILABLE)
  }
}

export async function POST(request: Request) {
  const check = await allowed(request, checkWriter)
  if (!check.ok) return refuse(check.status, check.error)
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return refuse(400, 'Envie um objeto JSON com "campaign" (o nome da campanha).')
  }
  const given = (body as { campaign?: unknown } | null)?.campaign
  const campaign = typeof given === 'string' ? tagValue(given) : ''
  if (!campaign) return refuse(400, 'Dê um nome à campanha (letras, números e hífens).')
  try {
    if (!(await nameCampaign(campaign)))
      return refuse(409, 'Já há 1.000 campanhas com nome; não é possível nomear mais.')
  } catch (error) {
    console.error(`[analytics] A campaign could not be named: ${String(error)}`)
    return refuse(503, UNAVAILABLE)
  }
  return Response.json({ campaign }, { status: 201, headers: PRIVATE })
}

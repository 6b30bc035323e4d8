import { checkReader, readReport } from '@/lib/analytics'
import { reportCsv } from '@/lib/analytics/csv'
import { PATH_GROUPS, reportQuerySchema } from '@/lib/analytics/report-schema'
import { clientIpFrom, rateLimitKeyFor } from '@/lib/security/client-ip'

// The figures (docs/analytics.md, "Reading the figures"): GET /api/analytics?from=&to=&by=
// [&format=csv][&path=]. Only for ANALYTICS_READ_TOKEN or a Studio user of the project.

export const dynamic = 'force-dynamic'

const PRIVATE = { 'cache-control': 'private, no-store' }

function refuse(status: number, error: string, extra: Record<string, string> = {}) {
  return Response.json({ error }, { status, headers: { ...PRIVATE, ...extra } })
}

export async function GET(request: Request) {
  const reader = await checkReader(
    request.headers.get('authorization'),
    rateLimitKeyFor(clientIpFrom(request.headers)),
  )
  if (!reader.ok)
    return refuse(
      reader.status,
      reader.error,
      reader.status === 401
        ? { 'www-authenticate': 'Bearer realm="analytics"' }
        : reader.status === 429
          ? { 'retry-after': '60' }
          : {},
    )

  const params = Object.fromEntries(new URL(request.url).searchParams)
  const parsed = reportQuerySchema.safeParse(params)
  if (!parsed.success) {
    return refuse(400, parsed.error.issues.map((issue) => issue.message).join(' '))
  }
  const query = parsed.data
  if (query.path && !PATH_GROUPS.includes(query.by))
    return refuse(
      400,
      `O filtro "path" vale só com ${new Intl.ListFormat('pt-BR', { type: 'disjunction' }).format(PATH_GROUPS.map((group) => `by=${group}`))}.`,
    )

  let report
  try {
    report = await readReport(query)
  } catch (error) {
    console.error(
      `[analytics] The figures could not be read: ${error instanceof Error ? error.message : error}`,
    )
    return refuse(503, 'O banco de dados não respondeu. Tente de novo em instantes.')
  }
  if (query.format === 'csv') {
    return new Response(reportCsv(report.rows, query.by), {
      headers: {
        ...PRIVATE,
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="desempenho-${query.by}-${query.from}-a-${query.to}.csv"`,
      },
    })
  }
  return Response.json(report, { headers: PRIVATE })
}

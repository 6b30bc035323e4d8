import { NextResponse, type NextRequest } from 'next/server'

import { instanceHealth, mayShowDetails, publicHealth } from '@/lib/health'

/**
 * For load balancers and uptime checks (docs/deploying.md, "Health check", and docs/publishing.md): 200 with which parts of this
 * instance are healthy, 503 only when it cannot serve pages. Anyone gets the status and each
 * part's ok; the details (modes, problems, paths) need X-Health-Token or a request from this
 * machine. Answered from memory in milliseconds; never cached, never sets a cookie.
 */
export const dynamic = 'force-dynamic'

export function GET(request: NextRequest) {
  const health = instanceHealth()
  return NextResponse.json(mayShowDetails(request.headers) ? health : publicHealth(health), {
    status: health.status === 'down' ? 503 : 200,
    headers: { 'Cache-Control': 'no-store' },
  })
}

import { NextResponse, type NextRequest } from 'next/server'

import { instanceHealth, mayShowDetails, publicHealth } from '@/lib/health'

/**
 * For load balancers and uptime checks (docs/deploying.md, "Health check"): 200, or 503 only
 * when the instance cannot serve pages. The details need X-Health-Token or X-Internal-Secret.
 */
export const dynamic = 'force-dynamic'

export function GET(request: NextRequest) {
  const health = instanceHealth()
  return NextResponse.json(mayShowDetails(request.headers) ? health : publicHealth(health), {
    status: health.status === 'down' ? 503 : 200,
    headers: { 'Cache-Control': 'no-store' },
  })
}

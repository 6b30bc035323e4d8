import { NextResponse } from 'next/server'

import { instanceHealth } from '@/lib/health'

/**
 * For load balancers and uptime checks (docs/deploying.md, "Health check"): 200 with which parts of this
 * instance are healthy, 503 only when it cannot serve pages. Answered from memory in
 * milliseconds; never cached, never sets a cookie.
 */
export const dynamic = 'force-dynamic'

export function GET() {
  const health = instanceHealth()
  return NextResponse.json(health, {
    status: health.status === 'down' ? 503 : 200,
    headers: { 'Cache-Control': 'no-store' },
  })
}

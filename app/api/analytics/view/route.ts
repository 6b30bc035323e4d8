import { after } from 'next/server'

import { answerBeacon, BEACON_ANSWER_HEADERS } from '@/lib/analytics/beacon-endpoint'
import { readLimitedText } from '@/lib/webhook/body'

// The visit beacon (docs/analytics.md). On `next start` and the standalone server the beacon is
// answered before it gets here (lib/analytics/early-beacon.ts); this route answers it wherever
// Next does not own the HTTP server, and any beacon that arrives before start-up has finished.
// Only POST is routed; Next answers any other method with 405.

export const dynamic = 'force-dynamic'

export async function POST(request: Request) {
  const answer = await answerBeacon(
    { headers: request.headers, readBody: (limit) => readLimitedText(request, limit) },
    // 204, not 202: with no body allowed the answer ends with its headers, while a 202's empty
    // chunked body stayed open until after() finished and Chromium aborted the keepalive request.
    (count) => after(count),
  )
  if (answer.status === 204)
    return new Response(null, { status: 204, headers: BEACON_ANSWER_HEADERS })
  return Response.json(
    { error: answer.error },
    { status: answer.status, headers: BEACON_ANSWER_HEADERS },
  )
}

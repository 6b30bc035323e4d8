import { after } from 'next/server'

import { answerBeacon, BEACON_ANSWER_HEADERS } from '@/lib/analytics/beacon-endpoint'

// The visit beacon (docs/analytics.md). Only POST is routed; Next answers any other method with
// 405. Its answers get the headers next.config.ts gives every response.

export const dynamic = 'force-dynamic'

export async function POST(request: Request) {
  const answer = await answerBeacon(
    request,
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

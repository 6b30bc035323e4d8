import { classifyError, classifyHttp, type AttemptResult } from './retry'

import { ATTEMPT_DEADLINE_MS } from './queue.mjs'

/**
 * POSTs JSON and reads the answer as an attempt's result, within the attempt's deadline (the
 * caller's signal, else ATTEMPT_DEADLINE_MS): it covers the answer's body too. Redirects are not
 * followed: a receiver that moved answers 3xx, which stops and is reported (its new address
 * belongs in the env).
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  signal: AbortSignal = AbortSignal.timeout(ATTEMPT_DEADLINE_MS),
): Promise<AttemptResult> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      redirect: 'manual',
      signal,
    })
    // The body is not ours to log (it may echo the lead); read it only to free the socket.
    await response.arrayBuffer().catch(() => undefined)
    return classifyHttp(response.status, response.headers.get('retry-after'))
  } catch (error) {
    return classifyError(error)
  }
}

import { classifyError, classifyHttp, type AttemptResult } from './retry'

/** One attempt's budget: well inside the delivery's lease (queue.mjs, LEASE_SECONDS). */
export const ATTEMPT_TIMEOUT_MS = 15_000

/**
 * POSTs JSON and reads the answer as an attempt's result. Redirects are not followed: a receiver
 * that moved answers 3xx, which stops and is reported (its new address belongs in the env).
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<AttemptResult> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    })
    // The body is not ours to log (it may echo the lead); read it only to free the socket.
    await response.arrayBuffer().catch(() => undefined)
    return classifyHttp(response.status, response.headers.get('retry-after'))
  } catch (error) {
    return classifyError(error)
  }
}

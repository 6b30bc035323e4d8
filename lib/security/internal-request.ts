import { serverEnv } from '@/lib/env'
import { sameSecret } from '@/lib/security/same-secret'

// Requests a server makes to itself carry a secret (INTERNAL_API_SECRET, or one made per process
// at start: each instance only ever calls its own origin, lib/own-origin.ts), so that a route meant
// for the server alone answers no one else, whatever front there is. docs/deploying.md.

/** The routing table proxy.ts reads (app/api/redirects): internal only. */
export const ROUTING_TABLE_PATH = '/api/redirects'

export const INTERNAL_SECRET_HEADER = 'x-internal-secret'

/** The headers a request from this server to itself sends. */
export function internalHeaders(): Record<string, string> {
  return { [INTERNAL_SECRET_HEADER]: serverEnv.internalApiSecret }
}

/** Whether `value` is this server's internal secret (compared in constant time). */
export function isInternalSecret(value: string | null | undefined): boolean {
  return !!value && sameSecret(value, serverEnv.internalApiSecret)
}

/** Whether a request came from this server itself. */
export function isInternalRequest(headers: Headers): boolean {
  return isInternalSecret(headers.get(INTERNAL_SECRET_HEADER))
}

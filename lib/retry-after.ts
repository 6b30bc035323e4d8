/**
 * A Retry-After header as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110
 * §10.2.3), never negative; undefined if absent or unreadable. Callers cap it to what they will
 * wait (lib/leads/delivery/retry.ts, lib/cdn/purge.ts).
 */
export function retryAfterMs(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

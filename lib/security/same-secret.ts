import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * Whether a secret a request sent is the expected one, compared in constant time: both sides are
 * hashed first, so neither how many leading characters match nor the lengths show. The one
 * comparison for every token, secret and signature the server checks.
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(given), digest(expected))
}

/**
 * JSON to place inside a <script> element (JSON-LD, an inline script's data), with '<' escaped so
 * that no text in it can close the tag.
 */
export function scriptJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}

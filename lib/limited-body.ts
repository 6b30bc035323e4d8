export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`Body larger than ${limit} bytes`)
    this.name = 'BodyTooLargeError'
  }
}

/**
 * The request body as text, read chunk by chunk and abandoned as soon as it passes `limit`
 * bytes, so an oversized body (announced or not by Content-Length) is never held in memory.
 * Used by the publish webhook and the visit beacon.
 */
export async function readLimitedText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit)
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new BodyTooLargeError(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** A body with no Content-Length: `chunks` chunks of `bytes` bytes each, sent as they are pulled. */
export function unannouncedBody(chunks: number, bytes = 1024): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode('x'.repeat(bytes))
  let sent = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < chunks) controller.enqueue(chunk)
      else controller.close()
    },
  })
}

import { describe, expect, it } from 'vitest'

import { unannouncedBody } from '../support/streams'

import { POST } from '@/app/api/analytics/view/route'

// The refusals of POST /api/analytics/view that need no database: each answers before anything is
// counted (docs/analytics.md, "Hostile input gets nothing").

const URL_ = 'http://127.0.0.1/api/analytics/view'

function post(body: BodyInit, headers: Record<string, string> = {}) {
  return POST(
    new Request(URL_, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      // A stream body needs it (Node's fetch).
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  )
}

describe('POST /api/analytics/view refusals', () => {
  it('refuses another content type with 415', async () => {
    const response = await post('{"path":"/"}', { 'content-type': 'text/plain' })
    expect(response.status).toBe(415)
    expect((await response.json()).error).toMatch(/application\/json/)
  })

  it('refuses a body over 2 KB with 413, announced or not', async () => {
    expect((await post(JSON.stringify({ path: '/', pad: 'x'.repeat(3000) }))).status).toBe(413)
    // No Content-Length: a stream of 3 chunks of 1 KB, abandoned once past the limit.
    const stream = unannouncedBody(3)
    const response = await post(stream)
    expect(response.status).toBe(413)
    expect((await response.json()).error).toMatch(/2048 bytes/)
  })

  it('refuses a body that is not a JSON object with a path with 400', async () => {
    expect((await post('not json')).status).toBe(400)
    expect((await post('[1,2]')).status).toBe(400)
    expect((await post('{"page":"/"}')).status).toBe(400)
  })

  it('answers a prefetch with 204 and no body, without counting it', async () => {
    const response = await post('{"path":"/"}', { 'sec-purpose': 'prefetch' })
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
  })
})

import http from 'node:http'
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startHttp2Proxy } from '../../scripts/bench/h2-proxy.mjs'

// The bench loads the page through this proxy; if it dropped headers or bodies, Lighthouse would
// measure a different page than visitors get.
let upstream: http.Server
let proxy: { origin: string; stop: () => Promise<void> }
const seen: http.IncomingHttpHeaders[] = []

beforeAll(async () => {
  upstream = http.createServer((request, response) => {
    seen.push(request.headers)
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      response.setHeader('content-security-policy', "default-src 'self'")
      response.setHeader('connection', 'keep-alive')
      response.setHeader('keep-alive', 'timeout=5')
      response.writeHead(request.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain' })
      response.end(`${request.method} ${request.url} ${body}`)
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const { port } = upstream.address() as AddressInfo
  proxy = await startHttp2Proxy(`http://127.0.0.1:${port}`)
})

afterAll(async () => {
  await proxy?.stop()
  await new Promise((resolve) => upstream?.close(resolve))
})

function h2Request(path: string, method = 'GET', body?: string) {
  return new Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const session = http2.connect(proxy.origin, { rejectUnauthorized: false })
      session.on('error', reject)
      const stream = session.request({ ':path': path, ':method': method })
      let headers: http2.IncomingHttpHeaders = {}
      let text = ''
      stream.on('response', (received) => (headers = received))
      stream.on('data', (chunk) => (text += chunk))
      stream.on('end', () => {
        session.close()
        resolve({ status: Number(headers[':status']), headers, body: text })
      })
      stream.on('error', reject)
      stream.end(body)
    },
  )
}

describe('the bench HTTPS + HTTP/2 proxy', () => {
  it('serves over TLS and HTTP/2 what the origin answers, status, headers and body', async () => {
    const response = await h2Request('/a/b?c=1')
    expect(response.status).toBe(200)
    expect(response.body).toBe('GET /a/b?c=1 ')
    expect(response.headers['content-security-policy']).toBe("default-src 'self'")
    // Connection-specific headers are illegal in HTTP/2; passing them on would break the stream.
    expect(response.headers.connection).toBeUndefined()
    expect(response.headers['keep-alive']).toBeUndefined()

    expect((await h2Request('/missing')).status).toBe(404)
  })

  it('forwards request bodies and tells the origin the visitor came over HTTPS', async () => {
    const response = await h2Request('/action', 'POST', 'nome=Ana')
    expect(response.body).toBe('POST /action nome=Ana')
    const headers = seen.at(-1)!
    expect(headers['x-forwarded-proto']).toBe('https')
    expect(headers.host).toBe(new URL(proxy.origin).host)
  })
})

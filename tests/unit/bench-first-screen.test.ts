// The bench's controls (scripts/bench/first-screen.mjs, docs/speed.md, issue 67): each page kind
// cut before its first lazy block, without scripts, served through the same HTTPS proxy as the
// page, with the page's headers (a forced variant's too).
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { LAZY_BLOCK } from '../../components/render-all'
import { controlOf, PAGES } from '../../scripts/bench/budgets.mjs'
import {
  firstScreenOnly,
  hasLazyBlock,
  LAZY_BLOCK_CLASS,
} from '../../scripts/bench/first-screen.mjs'
import { startHttp2Proxy } from '../../scripts/bench/h2-proxy.mjs'

const PAGE =
  '<!DOCTYPE html><html lang="pt-BR"><head><style>.a{color:red}</style>' +
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/a.js"/>' +
  '<script src="/_next/static/chunks/b.js" async=""></script></head><body>' +
  '<script>(function(){window.x=1})()</script><header>Vigia</header><main>' +
  '<section id="inicio" class="render-when-visible-not bg-navy-950"><h1>Título</h1></section>' +
  '<section id="sobre" class="py-16 render-when-visible sm:py-24"><h2>Sobre</h2></section>' +
  '</main><script>self.__next_f.push([1,"x"])</script></body></html>'

describe('firstScreenOnly', () => {
  it('names the lazy blocks’ class as the components do', () => {
    expect(LAZY_BLOCK_CLASS).toBe(LAZY_BLOCK)
  })

  it('keeps the head’s styles and the markup up to the first lazy block, without a script', () => {
    const html = firstScreenOnly(PAGE)
    expect(html).toContain('<style>.a{color:red}</style>')
    expect(html).toContain('<h1>Título</h1></section>')
    expect(html).not.toContain('id="sobre"')
    expect(html).not.toContain('Sobre')
    expect(html).not.toMatch(/<script|as="script"/)
  })

  it('leaves a page without a lazy block whole, but for its scripts', () => {
    const page = '<html><head></head><body><p>Texto</p><script>1</script></body></html>'
    expect(hasLazyBlock(page)).toBe(false)
    expect(firstScreenOnly(page)).toBe('<html><head></head><body><p>Texto</p></body></html>')
  })

  it('finds a lazy block whatever the classes beside it, and only that class', () => {
    expect(hasLazyBlock(PAGE)).toBe(true)
    expect(hasLazyBlock('<div class="render-when-visible [--render-size:30rem]">')).toBe(true)
    expect(hasLazyBlock('<section class="render-when-visible-not">')).toBe(false)
  })
})

describe('the bench’s HTTPS proxy with transformHtml', () => {
  const sprite = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><symbol id="a"/></svg>')
  let upstream: http.Server
  let origin: string
  beforeAll(async () => {
    upstream = http.createServer((request, response) => {
      if (request.url === '/p/x') {
        // A page with an experiment: the variant the header forces, as proxy.ts serves it.
        const variant = String(request.headers['x-vigia-variant'] ?? 'none')
        response.writeHead(200, { 'content-type': 'text/html' })
        response.end(
          `<html><head><meta name="vigia:variant" content="t/${variant}"/></head><body>` +
            `<h1>${variant}</h1><div class="render-when-visible">below</div></body></html>`,
        )
      } else if (request.url === '/') {
        const gzip = /gzip/.test(String(request.headers['accept-encoding']))
        response.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          etag: '"whole-page"',
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        })
        response.end(gzip ? zlib.gzipSync(PAGE) : PAGE)
      } else {
        response.writeHead(200, { 'content-type': 'image/svg+xml' })
        response.end(sprite)
      }
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())))

  /** The proxy's certificate is a throwaway self-signed one. */
  function get(url: string, acceptEncoding: string, headers: Record<string, string> = {}) {
    return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      https
        .get(
          url,
          {
            rejectUnauthorized: false,
            headers: { 'accept-encoding': acceptEncoding, ...headers },
          },
          (r) => {
            const chunks: Buffer[] = []
            r.on('data', (chunk: Buffer) => chunks.push(chunk))
            r.on('end', () => resolve({ headers: r.headers, body: Buffer.concat(chunks) }))
          },
        )
        .on('error', reject)
    })
  }

  it('serves a page rewritten, gzipped to a browser that accepts it, and everything else as it is', async () => {
    const proxy = await startHttp2Proxy(origin, { transformHtml: firstScreenOnly })
    try {
      const page = await get(`${proxy.origin}/`, 'gzip, br')
      expect(page.headers['content-encoding']).toBe('gzip')
      expect(page.headers.etag).toBeUndefined()
      expect(Number(page.headers['content-length'])).toBe(page.body.length)
      expect(zlib.gunzipSync(page.body).toString()).toBe(firstScreenOnly(PAGE))
      const plain = await get(`${proxy.origin}/`, 'identity')
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.body.toString()).toBe(firstScreenOnly(PAGE))
      const asset = await get(`${proxy.origin}/sprite.svg`, 'gzip')
      expect(asset.body).toEqual(sprite)
    } finally {
      await proxy.stop()
    }
  })

  it('serves a variant’s control with the variant its header forces', async () => {
    const variant = PAGES.find((page) => page.variant === 'tempo-real')!
    const proxy = await startHttp2Proxy(origin, { transformHtml: firstScreenOnly })
    try {
      const control = controlOf(variant.id, { ...variant, path: '/p/x' }, proxy.origin)
      expect(control.url).toBe(`${proxy.origin}/p/x`)
      const served = (await get(control.url, 'identity', control.headers)).body.toString()
      expect(served).toContain('<meta name="vigia:variant" content="t/tempo-real"/>')
      expect(served).toContain('<h1>tempo-real</h1>')
      expect(served).not.toContain('below')
    } finally {
      await proxy.stop()
    }
  })
})

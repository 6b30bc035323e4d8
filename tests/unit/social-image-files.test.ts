import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { afterEach, describe, expect, it, vi } from 'vitest'

import { imageDataUrl, publicAssetFile } from '@/lib/social-image'

// A bundled image's URL is a CMS value: whoever can write a document chooses it. The social cards
// read the file it names from public/, and never from anywhere else (issue 38).

const png = (url: string) => ({ asset: { url, extension: 'png' } }) as never
const BOX = { width: 10, height: 10, format: 'png' as const }
const bundled = `/images/${fs.readdirSync(path.join(process.cwd(), 'public', 'images')).find((name) => name.endsWith('.png') || name.endsWith('.svg'))}`

afterEach(() => vi.restoreAllMocks())

describe('social cards read bundled images from public/ only', () => {
  it('reads a bundled image', async () => {
    expect(await publicAssetFile(bundled)).toBe(path.join(process.cwd(), 'public', bundled))
    expect(await imageDataUrl(png(bundled), BOX)).toMatch(/^data:image\/png;base64,/)
  })

  it.each([
    '/../package.json',
    '/../../../../../../etc/passwd',
    '/images/../../.env.example',
    '/%2e%2e/package.json',
    `/${path.join(process.cwd(), 'package.json')}`,
    '//etc/passwd',
    '/images/\0.png',
  ])('never reads %j', async (url) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await imageDataUrl(png(url), BOX)).toBeNull()
    expect(error.mock.calls.join('\n')).toMatch(/not a file under public\//)
  })

  it('never follows a link inside public/ that points outside it', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-social-'))
    fs.writeFileSync(path.join(outside, 'secret.png'), 'secret')
    const link = path.join(process.cwd(), 'public', 'images', `link-${process.pid}.png`)
    fs.symlinkSync(path.join(outside, 'secret.png'), link)
    try {
      vi.spyOn(console, 'error').mockImplementation(() => {})
      expect(await imageDataUrl(png(`/images/${path.basename(link)}`), BOX)).toBeNull()
    } finally {
      fs.rmSync(link)
      fs.rmSync(outside, { recursive: true, force: true })
    }
  })
})

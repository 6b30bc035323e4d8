import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { queryDataset } from '@/lib/content/bundled'
import { LANDING_PAGE_QUERY } from '@/sanity/lib/queries'
import type { LANDING_PAGE_QUERY_RESULT } from '@/sanity/types'

import { BUNDLED_NDJSON } from './content-support'

// The bundled dataset stores its images the way `sanity dataset import` uploads them; the site's
// own path (groq-js) must resolve the very same documents to the local files.

const rawHero = () =>
  BUNDLED_NDJSON.split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { _id: string; hero?: { visual?: Record<string, unknown> } })
    .find((doc) => doc._id === 'landingPage')?.hero?.visual

describe('bundled images', () => {
  it('are written in the import CLI convention, relative to the NDJSON file', () => {
    const visual = rawHero()
    expect(visual?._sanityAsset).toMatch(/^image@file:\/\/\.\/.+\.png$/)
    expect(visual?.asset).toBeUndefined()
  })

  it('resolve to the local file, with the asset id and size Sanity would give them', async () => {
    const page = await queryDataset<LANDING_PAGE_QUERY_RESULT>(LANDING_PAGE_QUERY)
    const visual = page?.hero?.visual
    expect(visual?.alt).toBe(rawHero()?.alt)
    expect(visual?.asset?.url).toBe('/images/vigia-app-alerta.png')

    const file = path.join(process.cwd(), 'public', 'images', 'vigia-app-alerta.png')
    const sha1 = createHash('sha1').update(readFileSync(file)).digest('hex')
    expect(visual?.asset?._id).toBe(`image-${sha1}-1200x1200-png`)
    expect(visual?.asset?.metadata?.dimensions).toEqual({ width: 1200, height: 1200 })
    expect(visual?.asset?.extension).toBe('png')
  })
})

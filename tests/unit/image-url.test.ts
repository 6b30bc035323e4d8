import { describe, expect, it } from 'vitest'

import {
  croppedSize,
  IMAGE_WIDTHS,
  isLocalAsset,
  lakeImageProps,
  lakeImageUrl,
  type ContentImage,
} from '@/lib/content/image-url'

const HOST = { projectId: 'proj1', dataset: 'production', baseUrl: 'https://cdn.sanity.io' }
const ASSET_ID = 'image-0123456789abcdef0123456789abcdef01234567-1600x1200-png'
const FILE =
  'https://cdn.sanity.io/images/proj1/production/0123456789abcdef0123456789abcdef01234567-1600x1200.png'

function image(overrides: Partial<ContentImage> = {}): ContentImage {
  return {
    alt: 'Celular no painel',
    crop: null,
    hotspot: null,
    asset: {
      _id: ASSET_ID,
      url: FILE,
      extension: 'png',
      metadata: {
        lqip: 'data:image/jpeg;base64,AAAA',
        hasAlpha: false,
        dimensions: { width: 1600, height: 1200 },
      },
    },
    ...overrides,
  }
}

const crop = { _type: 'sanity.imageCrop' as const, top: 0.1, bottom: 0.1, left: 0.25, right: 0 }
const hotspot = {
  _type: 'sanity.imageHotspot' as const,
  x: 0.8,
  y: 0.5,
  width: 0.2,
  height: 0.2,
}

/** The query parameters of every candidate in a srcset, by its width descriptor. */
function candidates(srcSet: string) {
  return srcSet.split(', ').map((entry) => {
    const [url, descriptor] = entry.split(' ')
    const parsed = new URL(url!)
    return { descriptor, origin: parsed.origin, path: parsed.pathname, params: parsed.searchParams }
  })
}

describe('lakeImageProps', () => {
  it('serves every width from the image CDN with auto=format, capped at the source width', () => {
    const props = lakeImageProps(image(), HOST, { sizes: '100vw' })!
    expect(props.width).toBe(1600)
    expect(props.height).toBe(1200)
    expect(props.sizes).toBe('100vw')
    const list = candidates(props.srcSet)
    expect(list.map((c) => c.descriptor)).toEqual([
      ...IMAGE_WIDTHS.filter((w) => w < 1600).map((w) => `${w}w`),
      '1600w',
    ])
    for (const candidate of list) {
      expect(candidate.origin).toBe('https://cdn.sanity.io')
      expect(candidate.path).toBe(
        '/images/proj1/production/0123456789abcdef0123456789abcdef01234567-1600x1200.png',
      )
      expect(candidate.params.get('auto')).toBe('format')
      expect(`${candidate.params.get('w')}w`).toBe(candidate.descriptor)
      expect(candidate.params.has('rect')).toBe(false)
    }
  })

  it('applies the crop: a rect on the source and the cropped size as width and height', () => {
    const props = lakeImageProps(image({ crop }), HOST, { sizes: '100vw' })!
    // 1600 x 1200 less 25% on the left and 10% top and bottom.
    expect(props).toMatchObject({ width: 1200, height: 960 })
    for (const candidate of candidates(props.srcSet)) {
      expect(candidate.params.get('rect')).toBe('400,120,1200,960')
    }
    expect(candidates(props.srcSet).at(-1)?.descriptor).toBe('1200w')
  })

  it('cuts a forced aspect ratio around the hotspot, inside the crop', () => {
    const props = lakeImageProps(image({ crop, hotspot }), HOST, {
      sizes: '40px',
      aspectRatio: 1,
    })!
    expect(props).toMatchObject({ width: 960, height: 960 })
    const first = candidates(props.srcSet)[0]!
    expect(first.params.get('fit')).toBe('crop')
    expect(first.params.get('w')).toBe(first.params.get('h'))
    // A 960 px square inside the 1200 px wide crop (x 400-1600), pushed right towards the
    // hotspot at 80% of the source width, as far as the crop allows.
    expect(first.params.get('rect')).toBe('640,120,960,960')
  })

  it('keeps the frame centred on the hotspot when the crop leaves room', () => {
    const props = lakeImageProps(image({ hotspot: { ...hotspot, x: 0.5, y: 0.5 } }), HOST, {
      sizes: '100vw',
      aspectRatio: 2,
    })!
    expect(props).toMatchObject({ width: 1600, height: 800 })
    expect(candidates(props.srcSet)[0]!.params.get('rect')).toBe('0,200,1600,800')
  })

  it('uses the LQIP as blur placeholder for opaque images only', () => {
    expect(lakeImageProps(image(), HOST, { sizes: '1px' })?.blurDataURL).toBe(
      'data:image/jpeg;base64,AAAA',
    )
    const transparent = image()
    transparent.asset!.metadata!.hasAlpha = true
    expect(lakeImageProps(transparent, HOST, { sizes: '1px' })?.blurDataURL).toBeUndefined()
  })

  it('uses another image host when configured (the test double)', () => {
    const props = lakeImageProps(
      image(),
      { ...HOST, baseUrl: 'http://127.0.0.1:3360' },
      { sizes: '100vw' },
    )!
    expect(props.src).toMatch(/^http:\/\/127\.0\.0\.1:3360\/images\/proj1\/production\//)
  })

  it('renders nothing without an asset or its dimensions', () => {
    expect(lakeImageProps(image({ asset: null }), HOST, { sizes: '1px' })).toBeNull()
    const noSize = image()
    noSize.asset!.metadata = null
    expect(lakeImageProps(noSize, HOST, { sizes: '1px' })).toBeNull()
  })
})

describe('lakeImageUrl (the social card)', () => {
  it('asks for exactly the box, cut around the hotspot, in a format the renderer reads', () => {
    const url = new URL(
      lakeImageUrl(image({ hotspot }), HOST, { width: 1200, height: 630, format: 'jpg' })!,
    )
    expect(url.searchParams.get('w')).toBe('1200')
    expect(url.searchParams.get('h')).toBe('630')
    expect(url.searchParams.get('fm')).toBe('jpg')
    expect(url.searchParams.get('rect')).toBe('0,180,1600,840')
  })
})

describe('croppedSize and isLocalAsset', () => {
  it('reads the bundled images as local files', () => {
    const local = image()
    local.asset!.url = '/images/vigia-app-alerta.png'
    expect(isLocalAsset(local)).toBe(true)
    expect(isLocalAsset(image())).toBe(false)
    expect(croppedSize(local)).toEqual({ width: 1600, height: 1200 })
  })
})

// Where a picture sits inside a social card when it is cut around the editor's hotspot: scaled
// to cover the whole card, then shifted so the hotspot is as near the middle as the edges allow.
// The same cut the Sanity image CDN makes for `fit=crop` with a hotspot, for bundled files that
// no CDN resizes.

export type Box = { width: number; height: number }
export type Placement = { width: number; height: number; left: number; top: number }

export function coverPlacement(
  source: Box,
  card: Box,
  hotspot: { x?: number | null; y?: number | null } | null | undefined,
): Placement {
  const scale = Math.max(card.width / source.width, card.height / source.height)
  const width = Math.round(source.width * scale)
  const height = Math.round(source.height * scale)
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max)
  const x = hotspot?.x ?? 0.5
  const y = hotspot?.y ?? 0.5
  return {
    width,
    height,
    // `+ 0` turns -0 into 0.
    left: -Math.round(clamp(x * width - card.width / 2, width - card.width)) + 0,
    top: -Math.round(clamp(y * height - card.height / 2, height - card.height)) + 0,
  }
}

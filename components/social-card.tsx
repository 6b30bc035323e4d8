import { stegaClean } from 'next-sanity'
import type { CSSProperties, ReactNode } from 'react'

import type { SiteSettings } from '@/lib/content'

// What the generated social cards (app/opengraph-image.tsx, app/conteudos/[slug]/opengraph-image.tsx)
// share: the card's frame and the brand mark. Drawn by next/og (Satori), which reads inline styles
// only and wants `display: flex` on every element with more than one child.

/** The signal yellow of the mark and of the cards' accent line. */
export const SIGNAL_YELLOW = '#fbbf24'

/** The whole card: the site's navy gradient, white Inter, 72 px margins. */
export function SocialCardFrame({
  style,
  children,
}: {
  style: CSSProperties
  children: ReactNode
}) {
  return (
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        padding: 72,
        background: 'linear-gradient(135deg, #07142b 0%, #13305c 100%)',
        color: 'white',
        fontFamily: 'Inter',
        ...style,
      }}
    >
      {children}
    </div>
  )
}

/** The brand's name on a card, never with draft mode's invisible edit markers. */
export function cardBrandName(settings: SiteSettings | null): string {
  return stegaClean(settings?.brandName ?? 'Vigia')
}

const MARK = {
  large: { side: 72, radius: 16, fontSize: 40 },
  small: { side: 56, radius: 14, fontSize: 36 },
}

/** The brand mark: the yellow square, then what names the brand beside it. */
export function BrandMark({ scale, children }: { scale: keyof typeof MARK; children: ReactNode }) {
  const { side, radius, fontSize } = MARK[scale]
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize, fontWeight: 700 }}>
      <div
        style={{
          width: side,
          height: side,
          borderRadius: radius,
          background: SIGNAL_YELLOW,
          display: 'flex',
        }}
      />
      {children}
    </div>
  )
}

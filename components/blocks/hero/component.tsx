import { Hero } from '@/components/sections/hero'

import type { BlockProps } from '../types'

/** The home page's hero, with the block's own buttons and, without an image, the product visual. */
export function HeroBlock({ block }: BlockProps<'heroBlock'>) {
  return (
    <Hero
      hero={{
        ...block,
        primaryCta: block.primaryCta?.label ?? null,
        secondaryCta: block.secondaryCta?.label ?? null,
      }}
      primaryHref={block.primaryCta?.href ?? undefined}
      secondaryHref={block.secondaryCta?.href ?? undefined}
    />
  )
}

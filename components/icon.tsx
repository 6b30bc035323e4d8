import type { CSSProperties } from 'react'

import { cn } from '@/lib/utils'

import { SPRITE_ICONS } from './icons/names.mjs'
import sprite from './icons/sprite.svg'

export type IconName = keyof typeof SPRITE_ICONS

// A static import: the sprite gets a content-hashed URL under /_next/static, cached for a year
// and refetched only when an icon changes.
const SPRITE_URL: string = sprite.src

function isIconName(name: string): name is IconName {
  return Object.hasOwn(SPRITE_ICONS, name)
}

/**
 * An icon from the sprite (scripts/build-icon-sprite.mjs): one element painted in the text colour
 * through the sprite's cell as a mask (`.icon`, app/globals.css). Not `<svg><use>`: Chrome builds,
 * styles and lays out a `<use>`'s copy of its symbol even inside a block `content-visibility`
 * skips, and styles the whole sprite as a document (docs/speed.md). Decorative: the text beside it
 * says what it means. Unknown or missing names (a CMS value the site does not know) fall back to a
 * neutral shield. Sized by `className` (e.g. size-5) or by the parent's [&_.icon] rules; 24 px
 * otherwise.
 */
export function Icon({ name, className }: { name?: string | null; className?: string }) {
  const id = name && isIconName(name) ? name : 'shield-check'
  return (
    <span
      aria-hidden="true"
      className={cn('icon', className)}
      style={{ '--icon': `url(${SPRITE_URL}#${id})` } as CSSProperties}
    />
  )
}

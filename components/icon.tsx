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
 * An icon from the sprite (scripts/build-icon-sprite.mjs): two DOM nodes, whatever the icon.
 * Decorative: the text beside it says what it means. Unknown or missing names (a CMS value the
 * site does not know) fall back to a neutral shield. Sized by `className` (e.g. size-6) or by the
 * parent's [&_svg] rules; 24 px otherwise.
 */
export function Icon({ name, className }: { name?: string | null; className?: string }) {
  const id = name && isIconName(name) ? name : 'shield-check'
  return (
    <svg aria-hidden="true" width="24" height="24" className={cn('shrink-0', className)}>
      <use href={`${SPRITE_URL}#${id}`} />
    </svg>
  )
}

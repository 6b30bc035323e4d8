import { Technology } from '@/components/sections/technology'

import { blockAnchor, type BlockProps } from '../types'

/** The home page's "Tecnologia" cards and specification panel. */
export function CardGridBlock({ block }: BlockProps<'cardGridBlock'>) {
  return <Technology tecnologia={block} id={blockAnchor(block)} />
}

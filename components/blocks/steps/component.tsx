import { HowItWorks } from '@/components/sections/how-it-works'

import { blockAnchor, type BlockProps } from '../types'

/** The home page's "Como funciona" steps. */
export function StepsBlock({ block }: BlockProps<'stepsBlock'>) {
  return <HowItWorks comoFunciona={block} id={blockAnchor(block)} />
}

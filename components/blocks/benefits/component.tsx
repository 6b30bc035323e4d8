import { Benefits } from '@/components/sections/benefits'

import { blockAnchor, type BlockProps } from '../types'

/** The home page's benefits, ROI block and markets. */
export function BenefitsBlock({ block }: BlockProps<'benefitsBlock'>) {
  return <Benefits beneficios={block} id={blockAnchor(block)} />
}

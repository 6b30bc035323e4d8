import { RoiCalculatorPanel } from '@/components/roi-calculator-panel'
import { Section } from '@/components/ui/section'

import { blockAnchor, type BlockProps } from '../types'

/**
 * The home page's savings calculator on its own, with the same assumptions (one Studio document).
 * "Receber a análise completa" leads to the page's form block when there is one, to
 * /calculadora#contato otherwise.
 */
export function RoiCalculatorBlock({ block }: BlockProps<'roiCalculatorBlock'>) {
  return (
    <Section id={blockAnchor(block)} intro={block} className="bg-slate-50">
      <RoiCalculatorPanel
        calculator={block.calculator}
        headingLevel="h3"
        className="mx-auto mt-10 max-w-4xl border border-slate-200"
      />
    </Section>
  )
}

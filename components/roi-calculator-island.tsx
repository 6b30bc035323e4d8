'use client'

import type { RoiCalculatorProps } from '@/components/roi-calculator'
import { nearViewportIsland } from '@/components/near-viewport-island'

// The calculator's code loads as a visitor nears it or touches it, as the demo form's does
// (components/near-viewport-island.tsx). Until then the server's HTML is a working GET form to
// /calculadora, so a visitor who submits early, or has no JavaScript, gets the estimate from the
// server.
export const RoiCalculatorIsland = nearViewportIsland<RoiCalculatorProps>(
  async () => (await import('@/components/roi-calculator')).RoiCalculator,
)

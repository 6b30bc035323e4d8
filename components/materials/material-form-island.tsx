'use client'

import type { ComponentProps } from 'react'

import { nearViewportIsland } from '@/components/near-viewport-island'
import { firstTouchAttribution } from '@/lib/attribution'
import type { MaterialForm } from '@/components/materials/material-form'

// The material's form loads as the demo form does (components/demo-form-island.tsx): its code
// when the visitor nears or touches it; the prerendered HTML posts without it.
export const MaterialFormIsland = nearViewportIsland<ComponentProps<typeof MaterialForm>>(
  async () => (await import('@/components/materials/material-form')).MaterialForm,
  firstTouchAttribution,
)

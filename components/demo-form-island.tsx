'use client'

import type { ComponentProps } from 'react'

import type { DemoForm } from '@/components/demo-form'
import { nearViewportIsland } from '@/components/near-viewport-island'
import { firstTouchAttribution } from '@/lib/attribution'

// The form's code (react-hook-form, the form's render and its effects) was the largest piece of
// work in hydrating the home page: on the bench's emulated phone about 0.4 s of long tasks between
// the first paint and the page becoming interactive, for a form a dozen screens down. So it loads
// as a visitor nears or touches it (components/near-viewport-island.tsx); react-hook-form keeps a
// field edited before it was ready (`isEditedBeforeReady`), and a submit before then is a POST to
// the Server Action, answered with the page rendered with the result (SPEC section 8).
// First-touch attribution (UTM tags, referrer) is kept from the landing URL when the island mounts,
// not when the form loads: by then the visitor may have followed a link that drops the query.
export const DemoFormIsland = nearViewportIsland<ComponentProps<typeof DemoForm>>(
  async () => (await import('@/components/demo-form')).DemoForm,
  firstTouchAttribution,
)

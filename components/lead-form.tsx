import type { ReactNode } from 'react'

import { DemoFormIsland } from '@/components/demo-form-island'
import { serverEnv } from '@/lib/env'
import { signFormTimestamp } from '@/lib/security/form-token'
import type { FleetSize } from '@/lib/validations/demo-request-fields'

type Props = {
  title?: string | null
  notice?: ReactNode
  page?: string
  /** Chosen beforehand: the fleet band and the calculator's inputs (app/calculadora). */
  fleetSize?: FleetSize
  calculator?: string
}

/**
 * The demo form with what only the server knows: the signed render time a post without
 * JavaScript must bring back (lib/security/form-token.ts), the phone countries the site accepts
 * and Turnstile's public site key (lib/env.ts). Rendered with the page, so into its ISR cache.
 */
export function LeadForm({ title, notice, page, fleetSize, calculator }: Props) {
  // Props travel in the page's RSC payload, which has a byte budget (scripts/lib/page-weight.mjs):
  // the defaults (Brazil only, no Turnstile) are left out, and the form falls back to them.
  const countries = serverEnv.leadPhoneCountries
  const onlyBrazil = countries.length === 1 && countries[0] === 'BR'
  return (
    <DemoFormIsland
      title={title}
      notice={notice}
      page={page}
      {...(fleetSize ? { fleetSize } : {})}
      {...(calculator ? { calculator } : {})}
      formToken={signFormTimestamp()}
      {...(onlyBrazil ? {} : { phoneCountries: countries })}
      {...(serverEnv.turnstile ? { turnstileSiteKey: serverEnv.turnstile.siteKey } : {})}
    />
  )
}

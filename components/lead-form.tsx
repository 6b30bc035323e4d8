import type { ReactNode } from 'react'

import { DemoFormIsland } from '@/components/demo-form-island'
import { serverEnv } from '@/lib/env'
import { signFormTimestamp } from '@/lib/security/form-token'

type Props = {
  title?: string | null
  notice?: ReactNode
  page?: string
}

/**
 * The demo form with what only the server knows: the signed render time a post without
 * JavaScript must bring back (lib/security/form-token.ts), the phone countries the site accepts
 * and Turnstile's public site key (lib/env.ts). Rendered with the page, so into its ISR cache.
 */
export function LeadForm({ title, notice, page }: Props) {
  return (
    <DemoFormIsland
      title={title}
      notice={notice}
      page={page}
      formToken={signFormTimestamp()}
      phoneCountries={serverEnv.leadPhoneCountries}
      turnstileSiteKey={serverEnv.turnstile?.siteKey}
    />
  )
}

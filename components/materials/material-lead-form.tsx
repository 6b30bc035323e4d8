import { MaterialFormIsland } from '@/components/materials/material-form-island'
import { serverEnv } from '@/lib/env'
import { signFormTimestamp } from '@/lib/security/form-token'
import type { MaterialFieldChoice } from '@/lib/validations/material-request-fields'

/**
 * A material's form with what only the server knows, as LeadForm does for the demo form: the
 * signed render time, the phone countries and Turnstile's site key (only when not the defaults).
 */
export function MaterialLeadForm({
  slug,
  title,
  choices,
}: {
  slug: string
  title: string
  choices: readonly MaterialFieldChoice[]
}) {
  const countries = serverEnv.leadPhoneCountries
  const onlyBrazil = countries.length === 1 && countries[0] === 'BR'
  return (
    <MaterialFormIsland
      slug={slug}
      title={title}
      choices={choices}
      formToken={signFormTimestamp()}
      {...(onlyBrazil ? {} : { phoneCountries: countries })}
      {...(serverEnv.turnstile ? { turnstileSiteKey: serverEnv.turnstile.siteKey } : {})}
    />
  )
}

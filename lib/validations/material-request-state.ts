import type { MaterialRequestField, MaterialRequestInput } from './material-request'

/** What a material's Server Action answers; `values` lets the form refill itself without JavaScript. */
export type MaterialRequestState =
  | { status: 'idle' }
  | {
      status: 'success'
      /** The signed download path (lib/materials/download-link.ts), on the site's own origin. */
      downloadHref: string
      /** The material's confirmation text. */
      confirmation: string
      title: string
      /** Whether the link also went to the visitor's e-mail. */
      emailed: boolean
    }
  | {
      status: 'invalid'
      fieldErrors: Partial<Record<MaterialRequestField, string>>
      values: MaterialRequestInput
    }
  | {
      status: 'error'
      reason: 'store' | 'rate_limited' | 'verification' | 'expired' | 'unavailable'
      message: string
      values: MaterialRequestInput
      formToken?: string
    }

export const MATERIAL_IDLE_STATE: MaterialRequestState = { status: 'idle' }

import type { DemoRequestInput } from './demo-request'

// The demo form's values and answers, apart from the fields' constants (demo-request-fields.ts),
// which the schema itself imports: as material-request-state.ts is for a material's form.

export const EMPTY_DEMO_REQUEST: DemoRequestInput = {
  name: '',
  email: '',
  company: '',
  phone: '',
  fleetSize: '',
  message: '',
  calculadora: '',
  whatsappOptIn: '',
}

export type DemoRequestField = keyof DemoRequestInput
export const DEMO_REQUEST_FIELDS = Object.keys(EMPTY_DEMO_REQUEST) as DemoRequestField[]

/** What the Server Action answers; `values` lets the form refill itself when JavaScript is off. */
export type DemoRequestState =
  | { status: 'idle' }
  | { status: 'success' }
  | {
      status: 'invalid'
      fieldErrors: Partial<Record<DemoRequestField, string>>
      values: DemoRequestInput
    }
  | {
      status: 'error'
      reason: 'store' | 'rate_limited' | 'verification' | 'expired'
      message: string
      values: DemoRequestInput
      /** A newly signed render time, when the form's own has expired: the form sends it next. */
      formToken?: string
    }

export const IDLE_STATE: DemoRequestState = { status: 'idle' }

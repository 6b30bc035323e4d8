'use client'

import {
  useActionState,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react'
import { useForm } from 'react-hook-form'
import type { Resolver } from 'react-hook-form'

import { submitDemoRequest } from '@/app/actions/demo-request'
import { FormPostFields } from '@/components/form-post-fields'
import { Icon } from '@/components/icon'
import { Button, ButtonLink } from '@/components/ui/button'
import { Field, fieldA11y } from '@/components/ui/field'
import { Input, Select, Textarea } from '@/components/ui/input'
import { firstTouchAttribution, servedVariant } from '@/lib/attribution'
import { fleetBand } from '@/lib/roi/calculator'
import { HANDOFF_EVENT, readHandoff, saveHandoff } from '@/lib/roi/handoff'
import { decodeHandoff, describeInputs, HANDOFF_INVALID_MESSAGE } from '@/lib/roi/input'
import type { Attribution } from '@/lib/leads/compose'
import type { DemoRequestInput } from '@/lib/validations/demo-request'
import {
  FLEET_SIZE_LABELS,
  FLEET_SIZES,
  LIMITS,
  PAGE_FIELD,
  CALCULATOR_FIELD,
  WHATSAPP_OPT_IN_LABEL,
  WHATSAPP_OPT_IN_VALUE,
  type FleetSize,
} from '@/lib/validations/demo-request-fields'
import {
  EMPTY_DEMO_REQUEST,
  IDLE_STATE,
  DEMO_REQUEST_FIELDS,
  type DemoRequestField,
} from '@/lib/validations/demo-request-state'
import { useTurnstile } from '@/lib/turnstile-client'
import { newSubmissionKey, withTimeout } from '@/lib/forms/client'
import { campaignPath } from '@/sanity/lib/paths'

/** The fields the visitor fills in, in the order the form shows them: the first refused gets focus. */
const FIELDS_IN_FORM_ORDER: DemoRequestField[] = [
  'name',
  'email',
  'company',
  'phone',
  'fleetSize',
  'message',
]

const TOASTS = {
  success: {
    title: 'Solicitação enviada com sucesso!',
    description: 'Nossa equipe entrará em contato em até 24 horas.',
  },
  error: {
    title: 'Erro ao enviar solicitação',
    description: 'Tente novamente ou entre em contato pelo WhatsApp.',
  },
}

type Sonner = typeof import('sonner')

const TOASTER_COLORS = {
  '--success-text': '#065f2c',
  '--error-text': '#991b1b',
} as CSSProperties

// The validation library and the toasts load when the visitor first touches the form, not with
// the page: a visitor on a weak signal gets a usable page sooner, and the form is ready long
// before they press send.
let validationResolver: Promise<Resolver<DemoRequestInput>> | undefined
let sonnerModule: Promise<Sonner> | undefined

function loadValidation(phoneCountries?: readonly string[]) {
  validationResolver ??= Promise.all([
    import('@hookform/resolvers/zod'),
    import('@/lib/validations/demo-request'),
  ]).then(
    ([{ zodResolver }, { createDemoRequestSchema }]) =>
      zodResolver(createDemoRequestSchema(phoneCountries)) as Resolver<DemoRequestInput>,
  )
  return validationResolver
}

function loadSonner() {
  sonnerModule ??= import('sonner')
  return sonnerModule
}

type Props = {
  title?: string | null
  /** What is done with the data, beside the button (LGPD art. 9); server-rendered by the page. */
  notice?: ReactNode
  /** The campaign page's slug, stored with the lead; absent on the home page. */
  page?: string
  /** The server's signed render time, for a post without JavaScript (lib/security/form-token.ts). */
  formToken?: string
  /** Countries a phone may be from (LEAD_PHONE_COUNTRIES); Brazil only by default. */
  phoneCountries?: readonly string[]
  /** Cloudflare Turnstile's site key; unset, no Turnstile. */
  turnstileSiteKey?: string
  /** The fleet band chosen beforehand (/calculadora: the calculator's fleet). */
  fleetSize?: FleetSize
  /** The savings calculator's inputs the request carries along (lib/roi/input.ts). */
  calculator?: string
}

export function DemoForm({
  title,
  notice,
  page,
  formToken,
  phoneCountries,
  turnstileSiteKey,
  fleetSize,
  calculator,
}: Props) {
  const pagePath = page ? campaignPath(page) : '/'
  // Without JavaScript the <form> posts to the action and the page comes back rendered with its
  // answer: `serverState` then holds the thank-you state or the errors and the values typed.
  // The permalink is where that post goes: the page itself (React would otherwise write an empty
  // action="", which is not valid HTML). https://react.dev/reference/react/useActionState
  const [serverState, formAction] = useActionState(submitDemoRequest, IDLE_STATE, pagePath)
  const [submitted, setSubmitted] = useState(serverState.status === 'success')
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<string | null>(
    serverState.status === 'error' ? serverState.message : null,
  )
  const [hydrated, setHydrated] = useState(false)
  const [attribution, setAttribution] = useState<Attribution>({})
  const [startedAt, setStartedAt] = useState(() => String(Date.now()))
  // The server's signed render time; replaced when the server answers that it has expired.
  const [token, setToken] = useState(formToken)
  // Empty in the prerendered HTML (the same for every visitor); made when the form is shown.
  const [submissionKey, setSubmissionKey] = useState('')
  const turnstileBox = useRef<HTMLDivElement>(null)
  const [sonner, setSonner] = useState<Sonner | null>(null)
  const [toastToShow, setToastToShow] = useState<'success' | 'error' | null>(null)
  const inFlight = useRef(false)
  const thanksRef = useRef<HTMLHeadingElement>(null)

  // Also written into the markup (defaultValue), because register() fills the fields only once
  // hydrated: with JavaScript off, the refused values must come back in the HTML itself.
  const initialValues: DemoRequestInput =
    'values' in serverState
      ? serverState.values
      : { ...EMPTY_DEMO_REQUEST, fleetSize: fleetSize ?? '', calculadora: calculator ?? '' }
  const serverErrors = serverState.status === 'invalid' ? serverState.fieldErrors : {}

  const resolver = useMemo<Resolver<DemoRequestInput>>(
    () => async (values, context, options) =>
      (await loadValidation(phoneCountries))(values, context, options),
    [phoneCountries],
  )

  const {
    register,
    handleSubmit,
    reset,
    setFocus,
    setValue,
    getValues,
    setError,
    formState: { errors },
  } = useForm<DemoRequestInput>({
    resolver,
    defaultValues: initialValues,
    mode: 'onTouched',
  })

  useEffect(() => {
    // Hydration-time reads of browser-only state (clock, URL, sessionStorage); they cannot
    // happen during the prerender.
    /* eslint-disable react-hooks/set-state-in-effect */
    setHydrated(true)
    setStartedAt(String(Date.now()))
    setSubmissionKey(newSubmissionKey())
    // Where the lead is sent from, beside the first touch (its entry page and tags), and the
    // experiment's variant it is credited to: this page's, else the entry page's (the server
    // keeps it only while that experiment runs; docs/experiments.md).
    const touch = firstTouchAttribution()
    const variant = servedVariant() ?? touch.variant
    setAttribution({ ...touch, page: window.location.pathname, variant })
    /* eslint-enable react-hooks/set-state-in-effect */
  }, [])

  useEffect(() => {
    if (submitted) thanksRef.current?.focus()
  }, [submitted])

  // The savings calculator's inputs (components/roi-calculator.tsx): kept for a form that
  // hydrates later, announced to one already hydrated. Its fleet band is chosen for the visitor,
  // unless they chose one themselves before the form was ready.
  const [handoff, setHandoff] = useState(initialValues.calculadora ?? '')
  const [handedByServer] = useState(handoff !== '')
  useEffect(() => {
    const apply = (value: string, chosen: boolean) => {
      const inputs = value ? decodeHandoff(value) : null
      setHandoff(inputs ? value : '')
      if (inputs && (chosen || !getValues('fleetSize')))
        setValue('fleetSize', fleetBand(inputs.fleet), { shouldValidate: true })
    }
    // The server's own (/calculadora) wins over an older one kept in this tab.
    const stored = handedByServer ? '' : readHandoff()
    if (stored) apply(stored, false)
    const onHandoff = (event: Event) => apply((event as CustomEvent<string>).detail, true)
    window.addEventListener(HANDOFF_EVENT, onHandoff)
    return () => window.removeEventListener(HANDOFF_EVENT, onHandoff)
  }, [getValues, setValue, handedByServer])
  const handoffInputs = handoff ? decodeHandoff(handoff) : null

  // Cloudflare Turnstile, when configured: this code runs only once the form nears the screen
  // (components/demo-form-island.tsx), so the widget's script is fetched then, not with the page.
  const turnstile = useTurnstile(turnstileBox, turnstileSiteKey, !submitted)

  // Toasts are raised from an effect so that the lazily mounted <Toaster> (a child, whose effects
  // run first) is already listening; a toast raised before it subscribes would be lost.
  useEffect(() => {
    if (!toastToShow || !sonner) return
    const { title, description } = TOASTS[toastToShow]
    if (toastToShow === 'success') sonner.toast.success(title, { description })
    else sonner.toast.error(title, { description })
    // eslint-disable-next-line react-hooks/set-state-in-effect -- one-shot hand-off to sonner
    setToastToShow(null)
  }, [toastToShow, sonner])

  const warmUp = () => {
    void loadValidation(phoneCountries)
    void loadSonner().then(setSonner)
  }

  const send = handleSubmit(async (_values, event) => {
    // The raw form, hidden fields included: the server validates and trims it again.
    const form = event?.target
    if (!(form instanceof HTMLFormElement)) return
    setPending(true)
    setFailure(null)
    warmUp()
    try {
      const result = await withTimeout(submitDemoRequest(IDLE_STATE, new FormData(form)))
      if (result.status === 'success') {
        setToastToShow('success')
        // Sent along once: a new request starts without it.
        if (handoff) saveHandoff('')
        reset(EMPTY_DEMO_REQUEST)
        setSubmitted(true)
        return
      }
      // A Turnstile token serves once: the next try needs a new one.
      turnstile.reset()
      if (result.status === 'error' && result.formToken) setToken(result.formToken)
      console.error('Erro ao enviar solicitação:', result)
      if (result.status === 'invalid') showServerErrors(result.fieldErrors)
      setFailure(result.status === 'error' ? result.message : 'Revise os campos destacados.')
      setToastToShow('error')
    } catch (error) {
      // Same submission key on the retry: if this one did reach the database, it is not stored
      // twice (lib/leads, chave_envio).
      turnstile.reset()
      console.error('Erro ao enviar solicitação:', error)
      setFailure('Não foi possível enviar agora. Verifique sua conexão.')
      setToastToShow('error')
    } finally {
      setPending(false)
    }
  })

  // The server checks again, and can refuse what the browser accepted (a setting changed since
  // the page was rendered, a limit counted on what the browser sent). Its refusals are marked on
  // the fields as the browser's own are, and as they are without JavaScript: aria-invalid, the
  // message beside the field, focus on the first one. The values stay as typed.
  const showServerErrors = (fieldErrors: Partial<Record<DemoRequestField, string>>) => {
    const refused = DEMO_REQUEST_FIELDS.filter((field) => fieldErrors[field])
    const firstShown = FIELDS_IN_FORM_ORDER.find((field) => fieldErrors[field])
    for (const field of refused) {
      setError(
        field,
        { type: 'server', message: fieldErrors[field] },
        { shouldFocus: field === firstShown },
      )
    }
  }

  const startOver = () => {
    setSubmitted(false)
    setFailure(null)
    setStartedAt(String(Date.now()))
    // A new request: a new key (the previous one is stored).
    setSubmissionKey(newSubmissionKey())
    // Wait for the form to be back in the DOM before focusing its first field.
    requestAnimationFrame(() => setFocus('name'))
  }

  const errorOf = (field: keyof DemoRequestInput) =>
    errors[field]?.message ?? (hydrated ? undefined : serverErrors[field])
  const calculatorError = errorOf('calculadora')

  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      {sonner ? (
        <sonner.Toaster
          position="top-center"
          richColors
          // Darker text than sonner's rich colours, for 4.5:1 contrast at its 13 px size.
          style={TOASTER_COLORS}
        />
      ) : null}
      {/* Announces the outcome for screen readers, with what went wrong; the toasts and the line
          above the button say the same for sighted visitors. */}
      <p role="status" aria-live="polite" className="sr-only">
        {submitted ? TOASTS.success.title : failure ? `${TOASTS.error.title}. ${failure}` : ''}
      </p>
      {submitted ? (
        <div className="py-8 text-center">
          <Icon name="circle-check" className="mx-auto size-14 text-whatsapp-700" />
          <h3
            ref={thanksRef}
            tabIndex={-1}
            className="mt-4 text-2xl font-bold text-navy-950 outline-none"
          >
            Obrigado pelo seu interesse!
          </h3>
          <p className="mx-auto mt-3 max-w-md text-slate-600">
            Recebemos sua solicitação. Nossa equipe entrará em contato em até 24 horas para agendar
            a sua demonstração.
          </p>
          {/* A link so that it also works without JavaScript (a fresh page shows the form). */}
          <ButtonLink
            href={`${pagePath}#contato`}
            className="mt-6"
            onClick={(event) => {
              event.preventDefault()
              startOver()
            }}
          >
            Enviar Nova Solicitação
          </ButtonLink>
        </div>
      ) : (
        <form
          action={formAction}
          onSubmit={(event) => {
            // A second click while the first is still validating or sending does nothing.
            if (inFlight.current) {
              event.preventDefault()
              return
            }
            inFlight.current = true
            void send(event).finally(() => {
              inFlight.current = false
            })
          }}
          // With JavaScript our Portuguese messages replace the browser's bubbles; without it the
          // browser checks `required` and `type="email"` itself.
          noValidate={hydrated}
          aria-labelledby="demo-form-title"
          onFocus={warmUp}
          onPointerEnter={warmUp}
          className="space-y-5"
        >
          {title ? (
            <h3 id="demo-form-title" className="text-xl font-semibold text-navy-950">
              {title}
            </h3>
          ) : null}
          <p className="text-sm text-slate-600">
            Campos marcados com <span className="text-red-700">*</span> são obrigatórios.
          </p>

          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="demo-name" label="Nome" required error={errorOf('name')}>
              <Input
                {...fieldA11y('demo-name', errorOf('name'))}
                {...register('name')}
                defaultValue={initialValues.name}
                required
                maxLength={LIMITS.name}
                autoComplete="name"
              />
            </Field>
            <Field id="demo-email" label="E-mail" required error={errorOf('email')}>
              <Input
                {...fieldA11y('demo-email', errorOf('email'))}
                {...register('email')}
                defaultValue={initialValues.email}
                type="email"
                required
                maxLength={LIMITS.email}
                autoComplete="email"
                inputMode="email"
              />
            </Field>
            <Field id="demo-company" label="Empresa" required error={errorOf('company')}>
              <Input
                {...fieldA11y('demo-company', errorOf('company'))}
                {...register('company')}
                defaultValue={initialValues.company}
                required
                maxLength={LIMITS.company}
                autoComplete="organization"
              />
            </Field>
            <Field id="demo-phone" label="Telefone / WhatsApp" error={errorOf('phone')}>
              <Input
                {...fieldA11y('demo-phone', errorOf('phone'))}
                {...register('phone')}
                defaultValue={initialValues.phone}
                type="tel"
                maxLength={LIMITS.phone}
                autoComplete="tel"
                inputMode="tel"
                placeholder="(11) 99999-9999"
              />
            </Field>
          </div>

          <Field id="demo-fleet-size" label="Tamanho da frota" error={errorOf('fleetSize')}>
            <Select
              {...fieldA11y('demo-fleet-size', errorOf('fleetSize'))}
              {...register('fleetSize')}
              defaultValue={initialValues.fleetSize}
            >
              <option value="">Selecione...</option>
              {FLEET_SIZES.map((size) => (
                <option key={size} value={size}>
                  {FLEET_SIZE_LABELS[size]}
                </option>
              ))}
            </Select>
          </Field>

          {handoff ? (
            <div className="rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-700">
              {handoffInputs ? (
                <p>
                  Sua simulação da calculadora vai junto com o pedido:{' '}
                  {describeInputs(handoffInputs)}.
                </p>
              ) : (
                <p className="font-medium text-red-700">{HANDOFF_INVALID_MESSAGE}</p>
              )}
              {calculatorError && handoffInputs ? (
                <p className="font-medium text-red-700">{calculatorError}</p>
              ) : null}
              {/* A link, so that it also works without JavaScript (a fresh form, without it). */}
              <a
                href={`${pagePath}#contato`}
                onClick={(event) => {
                  event.preventDefault()
                  saveHandoff('')
                }}
                className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4"
              >
                Enviar sem a simulação
              </a>
              <input type="hidden" name={CALCULATOR_FIELD} value={handoff} />
            </div>
          ) : null}

          <Field id="demo-message" label="Mensagem" error={errorOf('message')}>
            <Textarea
              {...fieldA11y('demo-message', errorOf('message'))}
              {...register('message')}
              defaultValue={initialValues.message}
              rows={4}
              maxLength={LIMITS.message}
              placeholder="Conte um pouco sobre a sua operação: rotas, turnos, principais desafios."
            />
          </Field>

          {/* Explicit consent for the WhatsApp agent to write first: never ticked for the visitor.
              Not registered with the form library: the raw form (FormData) carries it. */}
          <div className="flex items-start gap-3">
            <input
              id="demo-whatsapp-opt-in"
              name="whatsappOptIn"
              type="checkbox"
              value={WHATSAPP_OPT_IN_VALUE}
              defaultChecked={initialValues.whatsappOptIn === WHATSAPP_OPT_IN_VALUE}
              className="mt-0.5 size-6 shrink-0 accent-brand-700"
            />
            <label htmlFor="demo-whatsapp-opt-in" className="text-sm text-slate-700">
              {WHATSAPP_OPT_IN_LABEL}
            </label>
          </div>

          <FormPostFields
            idPrefix="demo"
            startedAt={startedAt}
            token={token}
            submissionKey={submissionKey}
            attribution={attribution}
          />
          {turnstileSiteKey ? <div ref={turnstileBox} className="empty:hidden" /> : null}
          {page ? <input type="hidden" name={PAGE_FIELD} value={page} /> : null}

          {failure ? (
            <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {failure} Tudo o que você digitou continua aqui: é só tentar de novo.
            </p>
          ) : null}

          <Button
            type="submit"
            size="lg"
            className="w-full"
            disabled={pending}
            aria-disabled={pending}
          >
            {pending ? (
              <>
                <Icon name="loader-circle" className="animate-spin" />
                Enviando...
              </>
            ) : (
              <>
                <Icon name="send" />
                Solicitar Demonstração
              </>
            )}
          </Button>
          {notice}
        </form>
      )}
    </div>
  )
}

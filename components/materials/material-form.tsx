'use client'

import { useActionState, useEffect, useMemo, useRef, useState } from 'react'
import { useForm, type Resolver } from 'react-hook-form'

import { submitMaterialRequest } from '@/app/actions/material-request'
import { FormPostFields } from '@/components/form-post-fields'
import { Icon } from '@/components/icon'
import { Button } from '@/components/ui/button'
import { Field, fieldA11y } from '@/components/ui/field'
import { Input, Select, Textarea } from '@/components/ui/input'
import { firstTouchAttribution, servedVariant } from '@/lib/attribution'
import { newSubmissionKey, withTimeout } from '@/lib/forms/client'
import type { Attribution } from '@/lib/leads/compose'
import { useTurnstile } from '@/lib/turnstile-client'
import { FLEET_SIZE_LABELS } from '@/lib/validations/demo-request-fields'
import {
  EMAIL_CONSENT_FIELD,
  EMAIL_CONSENT_LABEL,
  EMAIL_CONSENT_VALUE,
  EMPTY_MATERIAL_REQUEST,
  FLEET_SIZES,
  MATERIAL_LIMITS,
  MATERIAL_SLUG_FIELD,
  SEGMENT_LABELS,
  SEGMENTS,
  type MaterialFieldChoice,
  type MaterialRequestField,
  type MaterialRequestInput,
} from '@/lib/validations/material-request-fields'
import {
  MATERIAL_IDLE_STATE,
  type MaterialRequestState,
} from '@/lib/validations/material-request-state'
import { materialPath } from '@/sanity/lib/paths'

const FORM_ORDER: MaterialRequestField[] = [
  'name',
  'email',
  'company',
  'phone',
  'role',
  'fleetSize',
  'segment',
  'message',
]

type Props = {
  slug: string
  title: string
  /** The optional fields the material asks, as published when the page was rendered. */
  choices: readonly MaterialFieldChoice[]
  formToken?: string
  phoneCountries?: readonly string[]
  turnstileSiteKey?: string
}

// The schema (zod/mini) loads when the visitor first touches the form, as the demo form's does.
function loadResolver(choices: readonly MaterialFieldChoice[], phoneCountries?: readonly string[]) {
  return Promise.all([
    import('@hookform/resolvers/zod'),
    import('@/lib/validations/material-request'),
  ]).then(
    ([{ zodResolver }, { createMaterialRequestSchema }]) =>
      zodResolver(
        createMaterialRequestSchema(choices, phoneCountries),
      ) as unknown as Resolver<MaterialRequestInput>,
  )
}

/**
 * A material's form (issue 65). With JavaScript it validates as the visitor types and sends with
 * the Server Action; without, the <form> posts to the same action and the page comes back with its
 * answer (the link, or the errors and everything typed). Either way the download link appears only
 * after the server has stored the conversion.
 */
export function MaterialForm({
  slug,
  title,
  choices,
  formToken,
  phoneCountries,
  turnstileSiteKey,
}: Props) {
  const [serverState, formAction] = useActionState(
    submitMaterialRequest,
    MATERIAL_IDLE_STATE,
    materialPath(slug),
  )
  const [result, setResult] = useState<MaterialRequestState>(serverState)
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<string | null>(
    serverState.status === 'error' ? serverState.message : null,
  )
  const [hydrated, setHydrated] = useState(false)
  const [attribution, setAttribution] = useState<Attribution>({})
  const [startedAt, setStartedAt] = useState(() => String(Date.now()))
  const [token, setToken] = useState(formToken)
  const [submissionKey, setSubmissionKey] = useState('')
  const turnstileBox = useRef<HTMLDivElement>(null)
  const inFlight = useRef(false)
  const doneRef = useRef<HTMLHeadingElement>(null)
  const resolverPromise = useRef<Promise<Resolver<MaterialRequestInput>> | undefined>(undefined)

  const initialValues: MaterialRequestInput =
    'values' in serverState ? serverState.values : EMPTY_MATERIAL_REQUEST
  const serverErrors = serverState.status === 'invalid' ? serverState.fieldErrors : {}
  const asked = new Map(choices.map((choice) => [choice.field, choice.required]))

  const warmUp = () => {
    resolverPromise.current ??= loadResolver(choices, phoneCountries)
    return resolverPromise.current
  }
  const resolver = useMemo<Resolver<MaterialRequestInput>>(
    () => async (values, context, options) => (await warmUp())(values, context, options),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the choices are the page's, fixed
    [],
  )
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<MaterialRequestInput>({ resolver, defaultValues: initialValues, mode: 'onTouched' })

  useEffect(() => {
    /* eslint-disable react-hooks/set-state-in-effect */
    setHydrated(true)
    setStartedAt(String(Date.now()))
    setSubmissionKey(newSubmissionKey())
    const touch = firstTouchAttribution()
    setAttribution({
      ...touch,
      page: window.location.pathname,
      variant: servedVariant() ?? touch.variant,
    })
    /* eslint-enable react-hooks/set-state-in-effect */
  }, [])

  const done = result.status === 'success' ? result : null
  useEffect(() => {
    if (done) doneRef.current?.focus()
  }, [done])

  const turnstile = useTurnstile(turnstileBox, turnstileSiteKey, !done)

  const send = handleSubmit(async (_values, event) => {
    const form = event?.target
    if (!(form instanceof HTMLFormElement)) return
    setPending(true)
    setFailure(null)
    try {
      const answer = await withTimeout(
        submitMaterialRequest(MATERIAL_IDLE_STATE, new FormData(form)),
      )
      if (answer.status === 'success') {
        setResult(answer)
        return
      }
      turnstile.reset()
      if (answer.status === 'error' && answer.formToken) setToken(answer.formToken)
      if (answer.status === 'invalid') {
        const first = FORM_ORDER.find((field) => answer.fieldErrors[field])
        for (const field of FORM_ORDER) {
          const message = answer.fieldErrors[field]
          if (message)
            setError(field, { type: 'server', message }, { shouldFocus: field === first })
        }
      }
      setFailure(answer.status === 'error' ? answer.message : 'Revise os campos destacados.')
    } catch (error) {
      turnstile.reset()
      console.error('Erro ao enviar o formulário do material:', error)
      setFailure('Não foi possível enviar agora. Verifique sua conexão.')
    } finally {
      setPending(false)
    }
  })

  const errorOf = (field: MaterialRequestField) =>
    errors[field]?.message ?? (hydrated ? undefined : serverErrors[field])
  const label = (field: MaterialRequestField, text: string) => ({
    id: `material-${field}`,
    label: text,
    required:
      field === 'name' ||
      field === 'email' ||
      field === 'company' ||
      asked.get(field as never) === true,
    error: errorOf(field),
  })

  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <p role="status" aria-live="polite" className="sr-only">
        {done
          ? `Pronto! ${done.title} está liberado para download.`
          : failure
            ? `Não foi possível enviar. ${failure}`
            : ''}
      </p>
      {done ? (
        <div>
          <Icon name="circle-check" className="size-12 text-whatsapp-700" />
          <h2
            ref={doneRef}
            tabIndex={-1}
            className="mt-4 text-2xl font-bold text-navy-950 outline-none"
          >
            Seu material está pronto
          </h2>
          <p className="mt-3 text-pretty text-slate-700">{done.confirmation}</p>
          {/* The button's look without its nowrap: a long title wraps instead of widening the page. */}
          <a
            href={done.downloadHref}
            download
            className="mt-6 inline-flex items-center gap-2 rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white transition-colors hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 [&_.icon]:size-5"
          >
            <Icon name="download" />
            Baixar {done.title}
          </a>
          <p className="mt-4 text-sm text-slate-600">
            O link vale por 24 horas.
            {done.emailed ? ' Também enviamos o link para o seu e-mail.' : ''}
          </p>
        </div>
      ) : (
        <form
          action={formAction}
          onSubmit={(event) => {
            if (inFlight.current) {
              event.preventDefault()
              return
            }
            inFlight.current = true
            void send(event).finally(() => {
              inFlight.current = false
            })
          }}
          noValidate={hydrated}
          aria-labelledby="material-form-title"
          onFocus={() => void warmUp()}
          className="space-y-5"
        >
          <h2 id="material-form-title" className="text-xl font-semibold text-navy-950">
            Receba o material
          </h2>
          <p className="text-sm text-slate-600">
            Campos marcados com <span className="text-red-700">*</span> são obrigatórios.
          </p>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field {...label('name', 'Nome')}>
              <Input
                {...fieldA11y('material-name', errorOf('name'))}
                {...register('name')}
                defaultValue={initialValues.name}
                required
                maxLength={MATERIAL_LIMITS.name}
                autoComplete="name"
              />
            </Field>
            <Field {...label('email', 'E-mail')}>
              <Input
                {...fieldA11y('material-email', errorOf('email'))}
                {...register('email')}
                defaultValue={initialValues.email}
                type="email"
                required
                maxLength={MATERIAL_LIMITS.email}
                autoComplete="email"
                inputMode="email"
              />
            </Field>
            <Field {...label('company', 'Empresa')}>
              <Input
                {...fieldA11y('material-company', errorOf('company'))}
                {...register('company')}
                defaultValue={initialValues.company}
                required
                maxLength={MATERIAL_LIMITS.company}
                autoComplete="organization"
              />
            </Field>
            {asked.has('phone') ? (
              <Field {...label('phone', 'Telefone / WhatsApp')}>
                <Input
                  {...fieldA11y('material-phone', errorOf('phone'))}
                  {...register('phone')}
                  defaultValue={initialValues.phone}
                  type="tel"
                  required={asked.get('phone')}
                  maxLength={MATERIAL_LIMITS.phone}
                  autoComplete="tel"
                  inputMode="tel"
                  placeholder="(11) 99999-9999"
                />
              </Field>
            ) : null}
            {asked.has('role') ? (
              <Field {...label('role', 'Cargo')}>
                <Input
                  {...fieldA11y('material-role', errorOf('role'))}
                  {...register('role')}
                  defaultValue={initialValues.role}
                  required={asked.get('role')}
                  maxLength={MATERIAL_LIMITS.role}
                  autoComplete="organization-title"
                />
              </Field>
            ) : null}
            {asked.has('fleetSize') ? (
              <Field {...label('fleetSize', 'Tamanho da frota')}>
                <Select
                  {...fieldA11y('material-fleetSize', errorOf('fleetSize'))}
                  {...register('fleetSize')}
                  defaultValue={initialValues.fleetSize}
                  required={asked.get('fleetSize')}
                >
                  <option value="">Selecione...</option>
                  {FLEET_SIZES.map((size) => (
                    <option key={size} value={size}>
                      {FLEET_SIZE_LABELS[size]}
                    </option>
                  ))}
                </Select>
              </Field>
            ) : null}
            {asked.has('segment') ? (
              <Field {...label('segment', 'Segmento')}>
                <Select
                  {...fieldA11y('material-segment', errorOf('segment'))}
                  {...register('segment')}
                  defaultValue={initialValues.segment}
                  required={asked.get('segment')}
                >
                  <option value="">Selecione...</option>
                  {SEGMENTS.map((segment) => (
                    <option key={segment} value={segment}>
                      {SEGMENT_LABELS[segment]}
                    </option>
                  ))}
                </Select>
              </Field>
            ) : null}
          </div>
          {asked.has('message') ? (
            <Field {...label('message', 'Mensagem')}>
              <Textarea
                {...fieldA11y('material-message', errorOf('message'))}
                {...register('message')}
                defaultValue={initialValues.message}
                rows={4}
                required={asked.get('message')}
                maxLength={MATERIAL_LIMITS.message}
              />
            </Field>
          ) : null}

          {/* Never ticked for the visitor: RD Station gets e-mail consent only when it is. */}
          <div className="flex items-start gap-3">
            <input
              id="material-email-consent"
              name={EMAIL_CONSENT_FIELD}
              type="checkbox"
              value={EMAIL_CONSENT_VALUE}
              defaultChecked={initialValues.consentimentoEmail === EMAIL_CONSENT_VALUE}
              className="mt-0.5 size-6 shrink-0 accent-brand-700"
            />
            <label htmlFor="material-email-consent" className="text-sm text-slate-700">
              {EMAIL_CONSENT_LABEL}
            </label>
          </div>

          <FormPostFields
            idPrefix="material"
            startedAt={startedAt}
            token={token}
            submissionKey={submissionKey}
            attribution={attribution}
          />
          <input type="hidden" name={MATERIAL_SLUG_FIELD} value={slug} />
          {turnstileSiteKey ? <div ref={turnstileBox} className="empty:hidden" /> : null}

          {failure ? (
            <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {failure} Tudo o que você digitou continua aqui.
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
                <Icon name="download" />
                Receber o material
              </>
            )}
          </Button>
          <p className="text-xs text-slate-600">
            Usamos seus dados para enviar “{title}” e registrar o pedido, como explica a{' '}
            <a
              href="/privacidade"
              className="font-semibold text-brand-700 underline underline-offset-2"
            >
              política de privacidade
            </a>
            .
          </p>
        </form>
      )}
    </div>
  )
}

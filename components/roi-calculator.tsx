'use client'

import { useEffect, useId, useState, type FormEvent } from 'react'

import { estimateRoi, type RoiAssumptions } from '@/lib/roi/calculator'
import { formatCount, formatMonths, formatReais, formatRoi } from '@/lib/roi/format'
import { goToForm, saveHandoff } from '@/lib/roi/handoff'
import {
  CALCULATOR_FIELDS,
  encodeHandoff,
  parseCalculator,
  type CalculatorErrors,
  type CalculatorField,
  type CalculatorValues,
} from '@/lib/roi/input'
import { cn } from '@/lib/utils'

/** Where the form goes without JavaScript: a GET answered by the server (app/calculadora). */
export const CALCULATOR_ROUTE = '/calculadora'
const FORM_ANCHOR = 'contato'

export type RoiCalculatorProps = {
  assumptions: RoiAssumptions
  /** The values the form opens with (the reference fleet, or what /calculadora received). */
  values: CalculatorValues
  /** The server's messages for `values`, shown until the island takes over. */
  errors?: CalculatorErrors
  /** The hints under the optional fields, worded from the assumptions by the server. */
  hints: { sinistros: string; custo: string }
}

const LABELS: Record<CalculatorField, string> = {
  frota: 'Veículos na frota',
  sinistros: 'Sinistros por ano (opcional)',
  custo: 'Custo médio de um sinistro, em R$ (opcional)',
}

/**
 * The calculator's form: a real GET form to /calculadora (the server's answer without
 * JavaScript), whose figures follow what is typed once the island has loaded it
 * (components/roi-calculator-island.tsx). The same markup on the server and on the first client
 * render, so nothing moves when it hydrates.
 */
export function RoiCalculator({
  assumptions,
  values: initial,
  errors: serverErrors,
  hints,
}: RoiCalculatorProps) {
  const id = useId()
  const [values, setValues] = useState(initial)
  const [shown, setShown] = useState<Set<CalculatorField>>(() => new Set())
  const [hydrated, setHydrated] = useState(false)
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the server's messages give way
  useEffect(() => setHydrated(true), [])

  const parsed = parseCalculator(values)
  const estimate = parsed.ok ? estimateRoi(parsed.inputs, assumptions) : null
  const errors: CalculatorErrors = hydrated
    ? parsed.ok
      ? {}
      : Object.fromEntries(
          Object.entries(parsed.errors).filter(([field]) => shown.has(field as CalculatorField)),
        )
    : (serverErrors ?? {})

  const fieldId = (field: CalculatorField) => `${id}-${field}`

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setShown(new Set(CALCULATOR_FIELDS))
    const submitter = (event.nativeEvent as SubmitEvent).submitter
    const wantsAnalysis = submitter?.hasAttribute('data-analise') ?? false
    if (!parsed.ok) {
      event.preventDefault()
      const first = CALCULATOR_FIELDS.find((field) => parsed.errors[field])
      if (first) document.getElementById(fieldId(first))?.focus()
      return
    }
    if (!wantsAnalysis) {
      // The figures already follow the fields; the server has nothing to add.
      event.preventDefault()
      return
    }
    saveHandoff(encodeHandoff(parsed.inputs))
    const form = document.getElementById(FORM_ANCHOR)
    // No demo form on this page: the browser goes on to /calculadora#contato, which has one.
    if (!form) return
    event.preventDefault()
    goToForm(form)
  }

  const field = (name: CalculatorField, hint?: string) => {
    const error = errors[name]
    const describedBy =
      [hint ? `${fieldId(name)}-dica` : '', error ? `${fieldId(name)}-erro` : '']
        .filter(Boolean)
        .join(' ') || undefined
    return (
      <div>
        <label
          htmlFor={fieldId(name)}
          className="mb-1.5 block text-sm font-semibold text-slate-800"
        >
          {LABELS[name]}
        </label>
        <input
          id={fieldId(name)}
          name={name}
          inputMode="numeric"
          autoComplete="off"
          required={name === 'frota'}
          maxLength={20}
          value={values[name]}
          onChange={(event) => setValues({ ...values, [name]: event.target.value })}
          onBlur={() => setShown((previous) => new Set(previous).add(name))}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="block h-12 w-full rounded-lg border border-slate-300 bg-white px-3.5 text-base text-slate-900 tabular-nums focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600 aria-invalid:border-red-700"
        />
        {hint ? (
          <p id={`${fieldId(name)}-dica`} className="mt-1.5 text-sm text-slate-600">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={`${fieldId(name)}-erro`} className="mt-1.5 text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    )
  }

  const figures = [
    {
      label: 'Economia estimada por ano',
      value: estimate ? formatReais(estimate.yearlySavings) : '—',
    },
    { label: 'Payback', value: estimate ? formatMonths(estimate.paybackMonths) : '—' },
    { label: 'ROI em 2 anos', value: estimate ? formatRoi(estimate.roiTwoYears) : '—' },
  ]

  return (
    <form
      action={CALCULATOR_ROUTE}
      method="get"
      noValidate={hydrated}
      onSubmit={onSubmit}
      aria-label="Calculadora de economia"
      className="mt-5 grid gap-6"
    >
      <div className="grid gap-4 lg:grid-cols-3">
        {field('frota')}
        {field('sinistros', hints.sinistros)}
        {field('custo', hints.custo)}
      </div>

      <output
        htmlFor={CALCULATOR_FIELDS.map(fieldId).join(' ')}
        aria-live="polite"
        className="grid gap-4 rounded-xl bg-brand-50 p-4 sm:grid-cols-3"
      >
        {figures.map((figure) => (
          // The label first for a screen reader, the value drawn above it (as ClaimFigure does).
          <span key={figure.label} className="flex flex-col-reverse text-sm font-medium">
            {figure.label}{' '}
            <b
              className={cn(
                'flex min-h-9 items-end tracking-tight break-words text-brand-700 tabular-nums',
                figure.value.length > 14 ? 'text-lg' : 'text-3xl',
              )}
            >
              {figure.value}
            </b>
          </span>
        ))}
        {estimate ? (
          <span className="text-sm text-slate-700 sm:col-span-3">
            Investimento estimado: {formatReais(estimate.cost)} para {formatCount(estimate.fleet)}{' '}
            {estimate.fleet === 1 ? 'veículo' : 'veículos'}, pago no início.
          </span>
        ) : (
          <span className="text-sm text-slate-700 sm:col-span-3">
            Corrija os campos destacados para ver a estimativa.
          </span>
        )}
      </output>

      <div className="flex flex-col gap-3 sm:flex-row">
        <button
          type="submit"
          className="inline-flex h-12 items-center justify-center rounded-lg border border-brand-700 px-5 font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          Calcular
        </button>
        <button
          type="submit"
          data-analise=""
          formAction={`${CALCULATOR_ROUTE}#${FORM_ANCHOR}`}
          className="inline-flex h-12 items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          Receber a análise completa
        </button>
      </div>
    </form>
  )
}

import type { ReactNode } from 'react'

/**
 * A labelled form control with its error. The control itself must carry `id`,
 * `aria-invalid` and `aria-describedby={errorId}`: see fieldA11y().
 */
export function Field({
  id,
  label,
  required,
  error,
  hint,
  children,
}: {
  id: string
  label: string
  required?: boolean
  error?: string
  hint?: string
  children: ReactNode
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-semibold text-slate-800">
        {label}
        {required ? (
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        ) : (
          <span className="font-normal text-slate-600"> (opcional)</span>
        )}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {/* Always in the DOM (not display:none) so screen readers announce the message when it appears. */}
      <p
        id={`${id}-error`}
        aria-live="polite"
        className="mt-1.5 text-sm font-medium text-red-700 empty:mt-0"
      >
        {error}
      </p>
    </div>
  )
}

/**
 * A required control says so with the native `required` attribute, which browsers expose to
 * assistive technology as required; `aria-required` beside it is redundant, and the HTML checker
 * flags it (https://www.w3.org/TR/html-aria/#docconformance).
 */
export function fieldA11y(id: string, error: string | undefined) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': `${id}-error`,
  } as const
}

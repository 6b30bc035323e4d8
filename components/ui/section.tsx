import type { ReactNode } from 'react'

import { cn } from '@/lib/utils'

export function Container({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div className={cn('mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8', className)}>{children}</div>
  )
}

/** The opening of every content section: eyebrow, h2 and introduction, each optional. */
export function SectionHeading({
  id,
  eyebrow,
  heading,
  intro,
  tone = 'light',
}: {
  id: string
  eyebrow?: string | null
  heading?: string | null
  intro?: string | null
  tone?: 'light' | 'dark'
}) {
  if (!eyebrow && !heading && !intro) return null
  return (
    <div className="mx-auto max-w-3xl text-center">
      {eyebrow ? (
        <p
          className={cn(
            'text-sm font-semibold tracking-wide uppercase',
            tone === 'dark' ? 'text-signal-400' : 'text-brand-700',
          )}
        >
          {eyebrow}
        </p>
      ) : null}
      {heading ? (
        <h2
          id={`${id}-titulo`}
          className={cn(
            'mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl',
            tone === 'dark' ? 'text-white' : 'text-navy-950',
          )}
        >
          {heading}
        </h2>
      ) : null}
      {intro ? (
        <p
          className={cn(
            'mt-4 text-lg text-pretty',
            tone === 'dark' ? 'text-slate-300' : 'text-slate-600',
          )}
        >
          {intro}
        </p>
      ) : null}
    </div>
  )
}

export function Section({
  id,
  className,
  labelled,
  children,
}: {
  id: string
  className?: string
  labelled: boolean
  children: ReactNode
}) {
  return (
    <section
      id={id}
      aria-labelledby={labelled ? `${id}-titulo` : undefined}
      className={cn('py-16 sm:py-24', className)}
    >
      <Container>{children}</Container>
    </section>
  )
}

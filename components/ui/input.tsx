import { cva } from 'class-variance-authority'
import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'

// Inputs, selects and textareas share one look; aria-invalid turns the border red.
export const controlVariants = cva(
  'block w-full rounded-lg border border-slate-300 bg-white px-3.5 text-base text-slate-900 shadow-xs transition-colors placeholder:text-slate-500 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600 disabled:bg-slate-100 aria-invalid:border-red-700',
  {
    variants: {
      kind: { input: 'h-12', select: 'h-12 pr-10', textarea: 'min-h-28 py-3' },
    },
    defaultVariants: { kind: 'input' },
  },
)

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(controlVariants({ kind: 'input' }), className)} {...props} />
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(controlVariants({ kind: 'textarea' }), className)} {...props} />
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(controlVariants({ kind: 'select' }), className)} {...props} />
}

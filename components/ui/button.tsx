import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'

export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:pointer-events-none disabled:opacity-60 [&_.icon]:size-5',
  {
    variants: {
      variant: {
        primary: 'bg-brand-700 text-white hover:bg-brand-800 focus-visible:outline-brand-600',
        signal: 'bg-signal-400 text-navy-950 hover:bg-signal-300 focus-visible:outline-signal-300',
        outline: 'border border-white/40 text-white hover:bg-white/10 focus-visible:outline-white',
        ghost: 'text-navy-900 hover:bg-slate-100 focus-visible:outline-brand-600',
        whatsapp:
          'bg-whatsapp-700 text-white hover:bg-whatsapp-800 focus-visible:outline-whatsapp-700',
      },
      size: {
        sm: 'h-10 px-4 text-sm',
        md: 'h-12 px-5 text-base',
        lg: 'h-14 px-7 text-base',
        icon: 'size-11',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
)

export type ButtonVariants = VariantProps<typeof buttonVariants>

export function Button({
  className,
  variant,
  size,
  type = 'button',
  ...props
}: ComponentProps<'button'> & ButtonVariants) {
  return (
    <button type={type} className={cn(buttonVariants({ variant, size }), className)} {...props} />
  )
}

/** An anchor styled as a button: section links and external chats are links, not buttons. */
export function ButtonLink({
  className,
  variant,
  size,
  ...props
}: ComponentProps<'a'> & ButtonVariants) {
  return <a className={cn(buttonVariants({ variant, size }), className)} {...props} />
}

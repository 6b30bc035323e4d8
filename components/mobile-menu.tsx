'use client'

import { useEffect, useId, useRef, useState } from 'react'

import { Icon } from '@/components/icon'
import { buttonVariants } from '@/components/ui/button'
import { cn } from '@/lib/utils'

type Item = { key: string; label: string; href: string }

// The only client code in the header: the open/closed state of the small-screen menu.
// Links are plain anchors, so the browser (and CSS smooth scrolling) does the scrolling.
export function MobileMenu({ items, cta }: { items: Item[]; cta: string | null }) {
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const buttonRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false)
        buttonRef.current?.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [open])

  const close = () => setOpen(false)

  return (
    <div className="md:hidden">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={open ? 'Fechar menu' : 'Abrir menu'}
        onClick={() => setOpen((value) => !value)}
        className={buttonVariants({ variant: 'ghost', size: 'icon' })}
      >
        <Icon name={open ? 'x' : 'menu'} />
      </button>
      {/* Rendered only while open: closed, the header's own navigation (from md) has the same
          links, and a second hidden copy cost every page's first screen its elements. */}
      {open ? (
        <nav
          id={panelId}
          aria-label="Menu"
          className="absolute inset-x-0 top-full border-b border-slate-200 bg-white shadow-lg"
        >
          <ul className="mx-auto flex max-w-6xl flex-col px-4 py-3 sm:px-6">
            {items.map((item) => (
              <li key={item.key}>
                <a
                  href={item.href}
                  onClick={close}
                  className="block rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-50 hover:text-brand-700"
                >
                  {item.label}
                </a>
              </li>
            ))}
            {cta ? (
              <li className="pt-2">
                <a
                  href="#contato"
                  onClick={close}
                  className={cn(buttonVariants({ size: 'md' }), 'w-full')}
                >
                  {cta}
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </div>
  )
}

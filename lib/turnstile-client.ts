import { useEffect, useState, type RefObject } from 'react'

import { TURNSTILE_ACTION } from '@/lib/validations/demo-request-fields'

// Cloudflare Turnstile's script, loaded on demand in the browser by the forms (useTurnstile).
// https://developers.cloudflare.com/turnstile/get-started/client-side-rendering/#explicitly-render-the-turnstile-widget

export const TURNSTILE_SCRIPT =
  'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

type Turnstile = {
  render(
    container: HTMLElement,
    options: { sitekey: string; action?: string; appearance?: string; language?: string },
  ): string | undefined
  reset(widgetId: string): void
  remove(widgetId: string): void
}

declare global {
  interface Window {
    turnstile?: Turnstile
  }
}

let loading: Promise<Turnstile | undefined> | undefined

/** The Turnstile API, fetching its script once; undefined when it cannot be loaded. */
export function loadTurnstile(): Promise<Turnstile | undefined> {
  if (window.turnstile) return Promise.resolve(window.turnstile)
  loading ??= new Promise((resolve) => {
    const script = document.createElement('script')
    script.src = TURNSTILE_SCRIPT
    script.async = true
    script.onload = () => resolve(window.turnstile)
    script.onerror = () => {
      // The server then refuses the post with a message; the visitor can retry or use WhatsApp.
      loading = undefined
      resolve(undefined)
    }
    document.head.appendChild(script)
  })
  return loading
}

/**
 * The widget in `box` while `active` (the form is shown), for both forms: its id, to reset it
 * after a refused post (a token serves once). Rendered with TURNSTILE_ACTION, which the server
 * requires, and shown only if Cloudflare needs the visitor to act.
 */
export function useTurnstile(
  box: RefObject<HTMLDivElement | null>,
  siteKey: string | undefined,
  active: boolean,
): { reset: () => void } {
  const [widget, setWidget] = useState<string | undefined>(undefined)
  useEffect(() => {
    const element = box.current
    if (!siteKey || !element || !active) return
    let cancelled = false
    let id: string | undefined
    void loadTurnstile().then((turnstile) => {
      if (cancelled || !turnstile) return
      id = turnstile.render(element, {
        sitekey: siteKey,
        action: TURNSTILE_ACTION,
        appearance: 'interaction-only',
        language: 'pt-BR',
      })
      setWidget(id)
    })
    return () => {
      cancelled = true
      if (id) window.turnstile?.remove(id)
      setWidget(undefined)
    }
  }, [box, siteKey, active])
  return { reset: () => widget && window.turnstile?.reset(widget) }
}

// Cloudflare Turnstile's script, loaded on demand in the browser (components/demo-form.tsx).
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

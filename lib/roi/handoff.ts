// The calculator's inputs on their way to the demo form on the same page: kept in sessionStorage
// (a form that hydrates later reads them there, like the first-touch attribution) and announced
// with an event (a form already hydrated takes them at once). Browser-only.

import { renderAll } from '@/components/render-all'

const STORAGE_KEY = 'vigia:calculadora'
export const HANDOFF_EVENT = 'vigia:calculadora'

export function saveHandoff(handoff: string) {
  try {
    if (handoff) window.sessionStorage.setItem(STORAGE_KEY, handoff)
    else window.sessionStorage.removeItem(STORAGE_KEY)
  } catch {
    // Storage blocked (private mode, policies): the event still reaches a hydrated form.
  }
  window.dispatchEvent(new CustomEvent<string>(HANDOFF_EVENT, { detail: handoff }))
}

export function readHandoff(): string {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY) ?? ''
  } catch {
    return ''
  }
}

/**
 * Scrolls to the page's demo form with a fragment navigation (the URL names the form), after
 * laying out the lazily rendered sections on the way (components/render-all.tsx), so the scroll
 * lands on the form.
 */
export function goToForm(form: HTMLElement) {
  renderAll()
  if (window.location.hash === `#${form.id}`) form.scrollIntoView()
  else window.location.hash = form.id
}

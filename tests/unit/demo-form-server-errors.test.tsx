// @vitest-environment jsdom
// The demo form with JavaScript on, when the Server Action refuses fields the browser accepted:
// they are marked and announced as the browser's own refusals are (and as they are without
// JavaScript), the first gets focus, and nothing typed is lost. The end-to-end case, with a
// refusal the real server makes: tests/e2e/demo-form.spec.ts.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import type { DemoRequestState } from '@/lib/validations/demo-request-state'

// The Server Action as the browser's bundle sees it: a function that answers (its checks run on
// the server, tests/unit/demo-request-action.test.ts).
const { submitDemoRequest } = vi.hoisted(() => ({
  submitDemoRequest:
    vi.fn<(state: DemoRequestState, data: FormData) => Promise<DemoRequestState>>(),
}))
vi.mock('@/app/actions/demo-request', () => ({ submitDemoRequest }))

const { DemoForm } = await import('@/components/demo-form')

const PHONE_REFUSED =
  'Informe um celular ou telefone fixo do Brasil com DDD, como (11) 99999-9999. Números de outros países não são aceitos.'
const MESSAGE_REFUSED = 'A mensagem pode ter no máximo 2000 caracteres.'
const TYPED = {
  name: 'Maria Souza',
  email: 'maria@transportadora.com.br',
  company: 'Transportadora Horizonte',
  phone: '(11) 99999-8888',
  message: 'Temos 80 caminhões rodando à noite.',
}

let root: Root
let container: HTMLDivElement

beforeEach(async () => {
  // React warns unless it knows it runs inside act().
  ;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
  submitDemoRequest.mockReset()
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
  await act(async () => root.render(<DemoForm title="Solicitar demonstração" formToken="t" />))
})

afterEach(async () => {
  await act(async () => root.unmount())
  document.body.replaceChildren()
  vi.restoreAllMocks()
})

/** A control by its label's text, as a visitor finds it. */
function control(label: string): HTMLInputElement | HTMLTextAreaElement {
  const element = [...container.querySelectorAll('label')].find((node) =>
    node.textContent?.startsWith(label),
  )
  return container.querySelector(`#${element!.htmlFor}`)!
}

/** The text of what the control's aria-describedby points to. */
function descriptionOf(element: Element): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? []
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

/**
 * Lets the form work (the validation library loads, the action answers) inside act() until
 * `check` passes, for at most 10 s of real time.
 */
async function until(check: () => void) {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      check()
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
    }
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)))
  }
}

async function type(label: string, value: string) {
  const element = control(label)
  const prototype = Object.getPrototypeOf(element) as HTMLInputElement
  Object.getOwnPropertyDescriptor(prototype, 'value')!.set!.call(element, value)
  await act(async () => {
    element.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

async function fillAndSend() {
  await type('Nome', TYPED.name)
  await type('E-mail', TYPED.email)
  await type('Empresa', TYPED.company)
  await type('Telefone', TYPED.phone)
  await type('Mensagem', TYPED.message)
  const form = container.querySelector('form')!
  await act(async () => form.requestSubmit())
}

// The first render loads the form's libraries: seconds on two loaded cores.
describe('the demo form, when the server refuses fields', { timeout: 30_000 }, () => {
  it('marks each refused field with the server’s message, focuses the first and keeps every value', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    submitDemoRequest.mockImplementation(async () => ({
      status: 'invalid',
      fieldErrors: { message: MESSAGE_REFUSED, phone: PHONE_REFUSED },
      values: { ...TYPED, fleetSize: '', calculadora: '', whatsappOptIn: '' },
    }))
    await fillAndSend()

    await until(() => expect(submitDemoRequest).toHaveBeenCalledOnce())
    const phone = control('Telefone')
    const message = control('Mensagem')
    await until(() => expect(message.getAttribute('aria-invalid')).toBe('true'))
    expect(descriptionOf(message)).toBe(MESSAGE_REFUSED)
    expect(phone.getAttribute('aria-invalid')).toBe('true')
    expect(descriptionOf(phone)).toBe(PHONE_REFUSED)
    // The first in the form's order, whatever order the server listed them in.
    expect(document.activeElement).toBe(phone)
    // The fields it accepted are not marked.
    expect(control('Nome').getAttribute('aria-invalid')).not.toBe('true')
    // The outcome, announced.
    await until(() =>
      expect(container.querySelector('[role="status"]')?.textContent).toBe(
        'Erro ao enviar solicitação. Revise os campos destacados.',
      ),
    )
    for (const [label, value] of [
      ['Nome', TYPED.name],
      ['E-mail', TYPED.email],
      ['Empresa', TYPED.company],
      ['Telefone', TYPED.phone],
      ['Mensagem', TYPED.message],
    ]) {
      expect(control(label!).value, label).toBe(value)
    }

    // Editing a refused field clears its mark; the server checks it again on the next send.
    await type('Mensagem', 'Temos 80 caminhões.')
    await until(() => expect(message.getAttribute('aria-invalid')).not.toBe('true'))
  })
})

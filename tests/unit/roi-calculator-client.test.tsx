// @vitest-environment jsdom
// The calculator once its island has loaded it: the figures follow what is typed, bad input gets
// a Portuguese message and no figure, and "Receber a análise completa" hands the inputs to the
// demo form of the page (sessionStorage and an event) and leads to it.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { RoiCalculator } from '@/components/roi-calculator'
import { HANDOFF_EVENT } from '@/lib/roi/handoff'

// React warns unless it knows it runs inside act().
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const assumptions = {
  costPerVehicle: 1500,
  incidentsPerVehicle: 0.2,
  incidentCost: 25000,
  avoidedPercent: 60,
}

let root: Root
let container: HTMLDivElement

beforeEach(async () => {
  window.sessionStorage.clear()
  window.location.hash = ''
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
  await act(async () =>
    root.render(
      <RoiCalculator
        assumptions={assumptions}
        values={{ frota: '50', sinistros: '', custo: '' }}
        hints={{ sinistros: 'dica 1', custo: 'dica 2' }}
      />,
    ),
  )
})

afterEach(async () => {
  await act(async () => root.unmount())
  document.body.replaceChildren()
})

const output = () =>
  (container.querySelector('output')?.textContent ?? '').replace(/[\u00a0\u202f]/g, ' ')
const input = (name: string) => container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!
const button = (label: string) =>
  [...container.querySelectorAll('button')].find((element) => element.textContent === label)!

async function type(name: string, value: string) {
  const element = input(name)
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
  await act(async () => {
    setter.call(element, value)
    element.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

async function submitWith(label: string) {
  const form = container.querySelector('form')!
  await act(async () => form.requestSubmit(button(label)))
}

describe('the calculator island', () => {
  it('follows the fleet size: 120 vehicles save R$ 360 mil a year', async () => {
    expect(output()).toContain('R$ 150 mil')
    await type('frota', '120')
    expect(output()).toContain('R$ 360 mil')
    expect(output()).toContain('6 meses')
    expect(output()).toContain('300%')
    await type('sinistros', '10')
    // 10 incidents for 120 vehicles: R$ 150 mil a year for R$ 180 mil, 15 months, 67%.
    expect(output()).toContain('R$ 150 mil')
    expect(output()).toContain('15 meses')
    expect(output()).toContain('67%')
    await type('sinistros', '0')
    expect(output()).toContain('não se paga')
    expect(output()).not.toMatch(/NaN|Infinity|undefined/)
  })

  it.each([
    ['', 'Informe quantos veículos tem a frota.'],
    ['0', 'A frota precisa ter pelo menos 1 veículo.'],
    ['-3', 'A frota precisa ter pelo menos 1 veículo.'],
    ['2,5', 'Informe um número inteiro de veículos, como 120.'],
    ['1e9', 'Informe o número de veículos só com algarismos, como 120.'],
    ['abc', 'Informe o número de veículos só com algarismos, como 120.'],
    [
      '1000000000',
      'A calculadora vai até 100.000 veículos. Para uma frota maior, fale com a gente.',
    ],
  ])('answers %j with a message and no figure', async (value, message) => {
    await type('frota', value)
    await submitWith('Calcular')
    const field = input('frota')
    expect(field.getAttribute('aria-invalid')).toBe('true')
    const described = field
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
    expect(described).toContain(message)
    expect(document.activeElement).toBe(field)
    expect(output()).toContain('—')
    expect(output()).not.toMatch(/NaN|Infinity|undefined|R\$ -/)
    // Nothing travels to the form.
    expect(window.sessionStorage.getItem('vigia:calculadora')).toBeNull()
  })

  it('hands the inputs to the page’s demo form and leads to it', async () => {
    const contact = document.createElement('section')
    contact.id = 'contato'
    document.body.append(contact)
    const received: string[] = []
    const listener = (event: Event) => received.push((event as CustomEvent<string>).detail)
    window.addEventListener(HANDOFF_EVENT, listener)
    await type('frota', '120')
    await submitWith('Receber a análise completa')
    window.removeEventListener(HANDOFF_EVENT, listener)
    expect(window.sessionStorage.getItem('vigia:calculadora')).toBe('frota=120&sinistros=&custo=')
    expect(received).toEqual(['frota=120&sinistros=&custo='])
    expect(window.location.hash).toBe('#contato')
  })
})

// @vitest-environment jsdom
import { readFileSync } from 'node:fs'
import path from 'node:path'

import { afterEach, describe, expect, it, vi } from 'vitest'

import { LAZY_BLOCK, RENDER_ALL_ATTRIBUTE, RENDER_ALL_SCRIPT } from '@/components/render-all'

// The script's listeners stay on the document between tests: each test runs it in a fresh one.
function freshPage(hash = '') {
  document.documentElement.removeAttribute(RENDER_ALL_ATTRIBUTE)
  window.history.replaceState(null, '', `/${hash}`)
  document.body.innerHTML =
    '<a href="#contato">Contato</a><a href="/p/x">Outra</a><button>B</button>'
  const listeners: [EventTarget, string, EventListenerOrEventListenerObject][] = []
  for (const target of [window, document]) {
    const add = target.addEventListener.bind(target)
    vi.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
      listeners.push([target, type, listener!])
      add(type, listener, options)
    })
  }
  new Function(RENDER_ALL_SCRIPT)()
  vi.restoreAllMocks()
  cleanups.push(() => {
    for (const [target, type, listener] of listeners)
      for (const capture of [true, false]) target.removeEventListener(type, listener, capture)
  })
  return { marked: () => document.documentElement.hasAttribute(RENDER_ALL_ATTRIBUTE) }
}
const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((f) => f()))

describe('rendering every lazy block (components/render-all.tsx)', () => {
  it('the stylesheet renders the lazy blocks on the attribute; only visitors without JavaScript pay for :has()', () => {
    const css = readFileSync(path.join(process.cwd(), 'app/globals.css'), 'utf8').replace(
      /\/\*[\s\S]*?\*\//g,
      '',
    )
    const utility = css.slice(css.indexOf(`@utility ${LAZY_BLOCK} {`))
    const [withScript, withoutScript] = utility
      .slice(0, utility.indexOf('\n}'))
      .split('@media (scripting: none)')
    expect(withScript).toMatch(
      new RegExp(`:root\\[${RENDER_ALL_ATTRIBUTE}\\] & \\{\\s*content-visibility: visible;`),
    )
    expect(withScript).not.toMatch(/:has\(/)
    expect(withoutScript).toMatch(
      /:root:has\(:target, :focus-visible\) & \{\s*content-visibility: visible;/,
    )
  })

  it('leaves the blocks lazy on a tap, a click on another page link or another key', () => {
    const { marked } = freshPage()
    document.querySelector('button')!.click()
    document
      .querySelector<HTMLAnchorElement>('a[href="/p/x"]')!
      .dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    // A link to an anchor whose click the page cancels: no scroll follows.
    const anchor = document.querySelector<HTMLAnchorElement>('a[href="#contato"]')!
    anchor.addEventListener('click', (event) => event.preventDefault(), { once: true })
    anchor.click()
    expect(marked()).toBe(false)
  })

  it.each([
    [
      'the Tab key',
      () => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true })),
    ],
    [
      'a link to an anchor',
      () =>
        document
          .querySelector<HTMLAnchorElement>('a[href="#contato"]')!
          .dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })),
    ],
    ['a change of the anchor', () => window.dispatchEvent(new HashChangeEvent('hashchange'))],
    ['printing', () => window.dispatchEvent(new Event('beforeprint'))],
  ])('renders them all on %s', (_, act) => {
    const { marked } = freshPage()
    act()
    expect(marked()).toBe(true)
  })

  it('renders them all at once when the address names an anchor', () => {
    expect(freshPage('#contato').marked()).toBe(true)
  })
})

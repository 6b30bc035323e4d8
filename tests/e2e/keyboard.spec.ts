// The whole page with the keyboard alone, at both widths: the skip link, the navigation (the
// header's on wide screens, the menu on narrow ones), every tab stop scrolled into view (WCAG
// 2.4.11) and showing a focus ring that stands out from its background (WCAG 1.4.11, 3:1), and the
// demo form filled in and sent.
import type { Page } from '@playwright/test'

import {
  expect,
  expectSuccessToast,
  expectThankYou,
  field,
  formShownAt,
  runClockBehind,
  test,
  VALID,
  waitLikeAPerson,
} from './demo-fixtures'
import {
  expectNoAxeViolations,
  gotoHome,
  isNarrow,
  menuButton,
  NAV_ENTRIES,
  scrollToSection,
  waitForHydration,
} from './fixtures'

type FocusStop = {
  /** e.g. `a "Sobre" → #sobre`, `input #demo-name`, `button "Abrir menu"` */
  label: string
  id: string
  ring: boolean
  /** Contrast of the ring against the first solid background behind it; null when unknown. */
  ringContrast: number | null
}

/** What has focus now, and whether (and how clearly) a focus indicator shows it. */
function focusStop(page: Page): Promise<FocusStop | null> {
  return page.evaluate(async () => {
    const element = document.activeElement
    if (!(element instanceof HTMLElement) || element === document.body) return null
    // `transition-colors` fades the outline colour in: judge the ring as it settles, its
    // transition run to its end at once rather than waited out (some 35 stops a walk).
    await Promise.all(
      element.getAnimations().map((animation) => {
        // An endless one cannot be finished (nor waited out: none is on a tab stop).
        if (animation.effect?.getTiming().iterations !== Infinity) animation.finish()
        return animation.finished.catch(() => {})
      }),
    )

    const parse = (color: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number)
      return { r, g, b, a }
    }
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const linear = (channel: number) => {
        const value = channel / 255
        return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
      }
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    const style = getComputedStyle(element)
    const outline =
      style.outlineStyle !== 'none' &&
      parseFloat(style.outlineWidth) >= 1 &&
      parse(style.outlineColor).a > 0
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== ''

    // The ring is drawn outside the element, over whatever is behind it: the first ancestor
    // with a solid background. A gradient or image there makes the contrast unknown.
    let ringContrast: number | null = null
    if (outline) {
      let behind = element.parentElement
      while (behind) {
        const background = getComputedStyle(behind)
        if (background.backgroundImage !== 'none') break
        if (parse(background.backgroundColor).a === 1) break
        behind = behind.parentElement
      }
      const backgroundStyle = behind ? getComputedStyle(behind) : null
      if (backgroundStyle === null || backgroundStyle.backgroundImage === 'none') {
        const background = backgroundStyle
          ? parse(backgroundStyle.backgroundColor)
          : { r: 255, g: 255, b: 255 }
        const [light, dark] = [luminance(parse(style.outlineColor)), luminance(background)].sort(
          (x, y) => y - x,
        ) as [number, number]
        ringContrast = (light + 0.05) / (dark + 0.05)
      }
    }

    const name =
      element.getAttribute('aria-label') ?? element.textContent?.trim().replace(/\s+/g, ' ') ?? ''
    const href = element.getAttribute('href')
    const named = name !== '' && element.tagName !== 'TEXTAREA' && element.tagName !== 'SELECT'
    return {
      label: [
        element.tagName.toLowerCase(),
        named ? `"${name}"` : '',
        element.id ? `#${element.id}` : '',
        href ? `→ ${href}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      id: element.id,
      ring: outline || shadow,
      ringContrast,
    }
  })
}

/** Presses Tab and returns the new tab stop, checking that its focus ring shows. */
async function tab(page: Page): Promise<FocusStop> {
  await page.keyboard.press('Tab')
  const stop = await focusStop(page)
  expect(stop, 'Tab moved focus to an element').not.toBeNull()
  expect(stop!.ring, `${stop!.label} shows a focus ring`).toBe(true)
  if (stop!.ringContrast !== null) {
    expect(stop!.ringContrast, `${stop!.label}: focus ring contrast`).toBeGreaterThanOrEqual(3)
  }
  // The browser scrolls the new stop into view, smoothly unless reduced motion is asked for. It
  // must end on screen, not where blocks laid out during the scroll moved it (app/globals.css,
  // render-when-visible): a field typed into off screen is a field the visitor cannot see.
  await expect(page.locator(':focus'), `${stop!.label} is scrolled into view`).toBeInViewport()
  return stop!
}

/** Tabs until the element with this id has focus; returns every stop on the way, in order. */
async function tabUntil(page: Page, id: string, maxStops = 60): Promise<FocusStop[]> {
  const stops: FocusStop[] = []
  for (let i = 0; i < maxStops; i += 1) {
    const stop = await tab(page)
    stops.push(stop)
    if (stop.id === id) return stops
  }
  throw new Error(
    `#${id} not reached in ${maxStops} tab stops:\n${stops.map((s) => s.label).join('\n')}`,
  )
}

/** Keyboard focus starts from the top of the document, as after loading the page. */
async function focusFromTop(page: Page) {
  await page.evaluate(() => {
    ;(document.activeElement as HTMLElement | null)?.blur()
    window.scrollTo(0, 0)
  })
}

test(
  'the first Tab reaches the skip link, which shows and moves focus to the main content',
  { tag: '@full' },
  async ({ page }) => {
    await gotoHome(page)
    await focusFromTop(page)
    const skipLink = page.getByRole('link', { name: 'Pular para o conteúdo' })
    await tab(page)
    await expect(skipLink).toBeFocused()
    await expect(skipLink).toBeInViewport()
    const box = await skipLink.boundingBox()
    expect(box?.width ?? 0).toBeGreaterThan(40)
    expect(box?.height ?? 0).toBeGreaterThan(20)

    await page.keyboard.press('Enter')
    await expect(page.locator('main#conteudo')).toBeFocused()
    // The next stop is inside the main content: the header was skipped.
    await tab(page)
    expect(await page.evaluate(() => document.activeElement?.closest('main')?.id)).toBe('conteudo')
  },
)

// The walk and the sending are two tests: the walk's some 35 Tabs each check the focus ring and
// that the stop scrolled into view, which alone has taken about 20 s on a loaded two-core machine.
test(
  'tabbing from the top goes through the navigation to the form fields, in order',
  { tag: '@full' },
  async ({ page }) => {
    await gotoHome(page)
    await focusFromTop(page)

    expect((await tab(page)).label).toContain('Pular para o conteúdo')

    if (isNarrow(page)) {
      // The brand link, then the menu button; Enter opens the menu and Tab walks its entries.
      const button = menuButton(page)
      await tab(page)
      await tab(page)
      await expect(button).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(button).toHaveAttribute('aria-expanded', 'true')
      const entries: string[] = []
      for (let i = 0; i < NAV_ENTRIES.length; i += 1) entries.push((await tab(page)).label)
      expect(entries).toEqual(NAV_ENTRIES.map((entry) => `a "${entry.label}" → #${entry.id}`))
      // Escape closes the menu and hands focus back to its button; tabbing goes on from there.
      await page.keyboard.press('Escape')
      await expect(button).toHaveAttribute('aria-expanded', 'false')
      await expect(button).toBeFocused()
    } else {
      // The brand link, then the header navigation in its order.
      const stops: string[] = []
      for (let i = 0; i <= NAV_ENTRIES.length; i += 1) stops.push((await tab(page)).label)
      expect(stops).toEqual([
        expect.stringMatching(/^a ".+" → #inicio$/),
        ...NAV_ENTRIES.map((entry) => `a "${entry.label}" → #${entry.id}`),
      ])
    }

    // On through the page to the form; its fields come in the order of SPEC section 3.
    await tabUntil(page, 'demo-name')
    const fields = [await focusStop(page)]
    for (let i = 0; i < 7; i += 1) fields.push(await tab(page))
    expect(fields.map((stop) => stop?.id || stop?.label)).toEqual([
      'demo-name',
      'demo-email',
      'demo-company',
      'demo-phone',
      'demo-fleet-size',
      'demo-message',
      // The WhatsApp opt-in (issue 46), after SPEC's fields and before the button.
      'demo-whatsapp-opt-in',
      expect.stringMatching(/^button "Solicitar Demonstração"/),
    ])
    // Shift+Tab walks back up the same way.
    for (let i = 0; i < 7; i += 1) await page.keyboard.press('Shift+Tab')
    await expect(field(page, 'name')).toBeFocused()
  },
)

test(
  'the demo form is filled in and sent with the keyboard alone',
  { tag: '@full' },
  async ({ page }) => {
    // The form writes the time it was shown by the page's clock, run a fill time behind.
    await runClockBehind(page)
    await gotoHome(page)
    // The previous test walks here with Tab; this one starts on the first field.
    await scrollToSection(page, 'contato')
    await field(page, 'name').focus()
    await expect(field(page, 'name')).toBeFocused()
    for (const key of ['name', 'email', 'company', 'phone'] as const) {
      await page.keyboard.type(VALID[key])
      await page.keyboard.press('Tab')
    }
    await expect(field(page, 'fleetSize')).toBeFocused()
    // '' → 1-10 → 11-50 → 51-100: a closed select changes value with the arrow keys.
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowDown')
    await expect(field(page, 'fleetSize')).toHaveValue(VALID.fleetSize)
    await page.keyboard.press('Tab')
    await page.keyboard.type(VALID.message)
    await page.keyboard.press('Tab')
    for (const key of Object.keys(VALID) as Array<keyof typeof VALID>) {
      await expect(field(page, key)).toHaveValue(VALID[key])
    }

    await waitLikeAPerson(page, formShownAt())
    await page.keyboard.press('Enter')
    await expectSuccessToast(page)
    await expectThankYou(page)
    // Focus follows the answer, so a keyboard or screen-reader user is told and can go on.
    await expect(page.getByRole('heading', { name: 'Obrigado pelo seu interesse!' })).toBeFocused()
  },
)

test(
  'with reduced motion the page is axe clean, with no smooth scrolling or animation',
  { tag: '@full' },
  async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto('/')
    await waitForHydration(page)
    await expectNoAxeViolations(page)
    // navigation.spec.ts checks scroll-behavior; here, that transitions are switched off too.
    const transition = await page
      .locator('.transition-colors')
      .first()
      .evaluate((element) => {
        const style = getComputedStyle(element)
        return { property: style.transitionProperty, duration: style.transitionDuration }
      })
    expect(transition.property).toContain('background-color')
    expect(parseFloat(transition.duration)).toBeLessThanOrEqual(0.001)
  },
)

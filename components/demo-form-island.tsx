'use client'

import { Activity, lazy, useEffect, useId, useRef, useState, type ComponentProps } from 'react'

import type { DemoForm as DemoFormComponent } from '@/components/demo-form'
import { firstTouchAttribution } from '@/lib/attribution'

type Props = ComponentProps<typeof DemoFormComponent>

// The form's code (react-hook-form, the form's render and its effects) was the largest piece of
// work in hydrating the home page: on the bench's emulated phone about 0.4 s of long tasks between
// the first paint and the page becoming interactive, for a form a dozen screens down. So its code
// loads when a visitor comes near the form (one screen ahead) or touches it, not with the page.
//
// Until then the form is a dehydrated <Activity> boundary: React keeps the server-rendered HTML as
// it is and hydrates that same DOM once the code arrives (it does not re-create it), so anything
// typed in the meantime stays, and react-hook-form keeps a field edited before it was ready
// (`isEditedBeforeReady`). A submit before then is the form's no-JavaScript path: a POST to the
// Server Action, answered with the page rendered with the result (SPEC section 8).
// Not <Suspense>: React 19.2 streams a finished Suspense boundary of more than 500 bytes out of
// order, behind a script, once 12.8 kB of the page has gone out, and a visitor without
// JavaScript would get no form; an Activity boundary is always written in place.
// https://react.dev/reference/react/Activity
let openGate: () => void = () => {}
const gate = new Promise<void>((resolve) => {
  openGate = resolve
})

const DemoForm = lazy(async () => {
  // The server renders the form at once (the page waits for it, like any module it imports).
  if (typeof window !== 'undefined') await gate
  const { DemoForm } = await import('@/components/demo-form')
  return { default: DemoForm }
})

// Beyond the section itself: hydration starts about one screen before the form scrolls in.
const AHEAD = '100% 0px'
const TOUCH_EVENTS = ['focusin', 'pointerdown', 'pointerenter', 'touchstart', 'keydown'] as const

// Set once an island has mounted: from then on, an island that renders is rendered on the client.
let mountedBefore = false

export function DemoFormIsland(props: Props) {
  const boundary = useRef<HTMLDivElement>(null)
  const id = useId()
  // Hydrating, the server's HTML for this island is in the document. Rendered on the client (a
  // client-side navigation) there is no HTML to keep, and nothing would ever open the gate.
  const [fromServerHtml] = useState(
    () =>
      typeof document === 'undefined' || (!mountedBefore && document.getElementById(id) !== null),
  )
  if (!fromServerHtml) openGate()

  useEffect(() => {
    mountedBefore = true
    // First-touch attribution (UTM tags, referrer) is kept from the landing URL now, not when the
    // form loads: by then the visitor may have followed a link that drops the query string.
    firstTouchAttribution()

    const element = boundary.current
    if (!element) return
    const open = () => {
      openGate()
      cleanup()
    }
    const onTouch = (event: Event) => {
      if (event.target instanceof Node && element.contains(event.target)) open()
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) open()
      },
      { rootMargin: AHEAD },
    )
    observer.observe(element)
    // On the document, capturing: React stops an event aimed inside a boundary it has not hydrated
    // yet at the root (the document), so it never reaches the boundary's own elements.
    for (const type of TOUCH_EVENTS)
      document.addEventListener(type, onTouch, { capture: true, passive: true })
    function cleanup() {
      observer.disconnect()
      for (const type of TOUCH_EVENTS)
        document.removeEventListener(type, onTouch, { capture: true })
    }
    return cleanup
  }, [])

  return (
    <div ref={boundary} id={id}>
      <Activity mode="visible">
        <DemoForm {...props} />
      </Activity>
    </div>
  )
}

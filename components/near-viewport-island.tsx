'use client'

import { Activity, lazy, useEffect, useId, useRef, useState, type ComponentType } from 'react'

// An island whose code loads when a visitor comes near it (one screen ahead) or touches it, not
// with the page: the demo form and the savings calculator (docs/speed.md). Until then it is a
// dehydrated <Activity> boundary, hydrated in place, so anything typed meanwhile stays. Not
// <Suspense>: React 19.2 streams a large finished Suspense boundary out of order, behind a
// script, which would leave a visitor without JavaScript with no form.
// https://react.dev/reference/react/Activity

/** Beyond the island itself: its code starts loading about one screen before it scrolls in. */
const AHEAD = '100% 0px'
const TOUCH_EVENTS = ['focusin', 'pointerdown', 'pointerenter', 'touchstart', 'keydown'] as const

/**
 * The island for the component `load` imports. `onMount` runs once the island is on the page,
 * whether or not its code has loaded.
 */
export function nearViewportIsland<P extends object>(
  load: () => Promise<ComponentType<P>>,
  onMount?: () => void,
) {
  let openGate: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    openGate = resolve
  })
  const Loaded = lazy(async () => {
    // The server renders the component at once (the page waits for it, like any module it imports).
    if (typeof window !== 'undefined') await gate
    return { default: await load() }
  })
  // Set once an island has mounted: from then on, an island that renders is rendered on the client.
  let mountedBefore = false

  return function NearViewportIsland(props: P) {
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
      onMount?.()
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
      // On the document, capturing: React stops an event aimed inside a boundary it has not
      // hydrated yet at the root (the document), so it never reaches the boundary's own elements.
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
          <Loaded {...props} />
        </Activity>
      </div>
    )
  }
}

'use client'

import { Activity, lazy, useEffect, useId, useRef, useState } from 'react'

import type { RoiCalculatorProps } from '@/components/roi-calculator'

// The calculator's code loads as a visitor nears it (one screen ahead) or touches it, as the demo
// form's does (components/demo-form-island.tsx explains the <Activity> boundary). Until then the
// server's HTML is a working GET form to /calculadora, so a visitor who submits early, or has no
// JavaScript, gets the estimate from the server.
let openGate: () => void = () => {}
const gate = new Promise<void>((resolve) => {
  openGate = resolve
})

const RoiCalculator = lazy(async () => {
  if (typeof window !== 'undefined') await gate
  const { RoiCalculator } = await import('@/components/roi-calculator')
  return { default: RoiCalculator }
})

const TOUCH_EVENTS = ['focusin', 'pointerdown', 'pointerenter', 'touchstart', 'keydown'] as const
let mountedBefore = false

export function RoiCalculatorIsland(props: RoiCalculatorProps) {
  const boundary = useRef<HTMLDivElement>(null)
  const id = useId()
  const [fromServerHtml] = useState(
    () =>
      typeof document === 'undefined' || (!mountedBefore && document.getElementById(id) !== null),
  )
  if (!fromServerHtml) openGate()

  useEffect(() => {
    mountedBefore = true
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
      { rootMargin: '100% 0px' },
    )
    observer.observe(element)
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
        <RoiCalculator {...props} />
      </Activity>
    </div>
  )
}

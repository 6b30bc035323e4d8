'use client'

import { usePathname } from 'next/navigation'
import { useEffect } from 'react'

import { sendView } from '@/lib/analytics/beacon'

/**
 * Counts each page view without cookies (docs/analytics.md): in the root layout, so on every
 * page, and again on each client-side navigation (the path changes). Renders nothing.
 *
 * The view is sent once the main thread is idle, not in the hydration task: sending it also reads
 * the page's height (scroll depth), the visit's first touch and adds the reading and contact
 * listeners, work a slow phone would otherwise do inside the long task that hydrates the page
 * (issue 53). Not cancelled on a path change: a view left before the idle moment still counts.
 */
export function VisitBeacon() {
  const pathname = usePathname()
  useEffect(() => {
    if (!pathname) return
    // Safari has no requestIdleCallback: a timeout also lets the hydration task end first.
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => sendView(pathname), { timeout: 2000 })
    else setTimeout(() => sendView(pathname), 200)
  }, [pathname])
  return null
}

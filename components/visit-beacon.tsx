'use client'

import { usePathname } from 'next/navigation'
import { useEffect } from 'react'

import { sendView } from '@/lib/analytics/beacon'

/**
 * Counts each page view without cookies (docs/analytics.md): in the root layout, so on every
 * page, and again on each client-side navigation (the path changes). Renders nothing.
 */
export function VisitBeacon() {
  const pathname = usePathname()
  useEffect(() => {
    if (pathname) sendView(pathname)
  }, [pathname])
  return null
}

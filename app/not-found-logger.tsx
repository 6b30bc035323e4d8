'use client'

import { useEffect } from 'react'

// The not-found page is prerendered once for every missing path, so the path can only be read
// in the browser. SPEC section 2: the missing route is logged as an error with its path.
export function NotFoundLogger() {
  useEffect(() => {
    console.error(
      '404 Error: User attempted to access non-existent route:',
      window.location.pathname,
    )
  }, [])
  return null
}

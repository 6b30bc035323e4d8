import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'

import { VisitBeacon } from '@/components/visit-beacon'
import { getSiteSettings } from '@/lib/content'
import { metadataFromSettings } from '@/lib/site-metadata'

import { inter } from './fonts/inter'
import './globals.css'

// Title, description, canonical and social cards come from the site-settings document.
export async function generateMetadata(): Promise<Metadata> {
  return metadataFromSettings(await getSiteSettings())
}

export const viewport: Viewport = {
  themeColor: '#07142b',
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The announcement bar's inline script marks <html> before hydration when the visitor closed
    // the announcement (components/announcement-bar.tsx): that attribute is expected.
    <html lang="pt-BR" className={inter.variable} suppressHydrationWarning>
      <body className="font-sans">
        {children}
        {/* The visit beacon: counts this view without cookies (docs/analytics.md). */}
        <VisitBeacon />
      </body>
    </html>
  )
}

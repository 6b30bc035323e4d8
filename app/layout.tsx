import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'

import { RenderAllScript } from '@/components/render-all'
import { VisitBeacon } from '@/components/visit-beacon'
import { getSiteSettings } from '@/lib/content'
import { serverEnv } from '@/lib/env'
import { pageMetadata } from '@/lib/site-metadata'

import { inter } from './fonts/inter'
import './globals.css'

// The home page's title, description, canonical and social cards, from the site-settings
// document; the base every page's relative URLs resolve against.
export async function generateMetadata(): Promise<Metadata> {
  const settings = await getSiteSettings()
  return {
    metadataBase: new URL(serverEnv.siteUrl),
    ...pageMetadata({
      path: '/',
      title: settings?.seo?.title ?? settings?.brandName,
      description: settings?.seo?.description,
      settings,
    }),
  }
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
        {/* Before any lazy block: the keyboard and anchors render them all (app/globals.css). */}
        <RenderAllScript />
        {children}
        {/* The visit beacon: counts this view without cookies (docs/analytics.md). */}
        <VisitBeacon />
      </body>
    </html>
  )
}

import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'

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
    <html lang="pt-BR" className={inter.variable}>
      <body className="font-sans">{children}</body>
    </html>
  )
}

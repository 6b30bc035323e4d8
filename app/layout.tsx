import type { Metadata, Viewport } from 'next'
import type { ReactNode } from 'react'

import { inter } from './fonts'
import './globals.css'

export const metadata: Metadata = {
  title: 'Vigia | Detecção de fadiga e distração para frotas',
  description:
    'IA e visão computacional no smartphone do motorista detectam fadiga, sonolência e distração em tempo real.',
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

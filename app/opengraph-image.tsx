import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { ImageResponse } from 'next/og'

import { getLandingPage, getSiteSettings } from '@/lib/content'

export const alt = 'Vigia: detecção de fadiga e distração para frotas'
export const size = { width: 1200, height: 630 }
export const contentType = 'image/png'
export const revalidate = 3600

// Satori reads WOFF/TTF, not WOFF2, hence @fontsource/inter beside the variable font the page uses.
function font(weight: 700 | 800) {
  return readFile(
    path.join(
      process.cwd(),
      `node_modules/@fontsource/inter/files/inter-latin-${weight}-normal.woff`,
    ),
  )
}

export default async function OpenGraphImage() {
  const [settings, page, bold, extraBold] = await Promise.all([
    getSiteSettings(),
    getLandingPage(),
    font(700),
    font(800),
  ])
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: 72,
        background: 'linear-gradient(135deg, #07142b 0%, #13305c 100%)',
        color: 'white',
        fontFamily: 'Inter',
      }}
    >
      <div
        style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize: 40, fontWeight: 700 }}
      >
        <div
          style={{
            width: 72,
            height: 72,
            borderRadius: 16,
            background: '#fbbf24',
            display: 'flex',
          }}
        />
        <div style={{ display: 'flex', flexDirection: 'column' }}>
          <span>{settings?.brandName ?? 'Vigia'}</span>
          <span style={{ fontSize: 24, color: '#cbd5e1' }}>{settings?.tagline ?? ''}</span>
        </div>
      </div>
      <div style={{ fontSize: 68, fontWeight: 800, lineHeight: 1.1, maxWidth: 1000 }}>
        {page?.hero?.headline ?? settings?.seo?.title ?? ''}
      </div>
      <div style={{ fontSize: 28, color: '#fbbf24', fontWeight: 700 }}>
        Fadiga · Sonolência · Distração, em tempo real
      </div>
    </div>,
    {
      ...size,
      fonts: [
        { name: 'Inter', data: bold, weight: 700, style: 'normal' },
        { name: 'Inter', data: extraBold, weight: 800, style: 'normal' },
      ],
    },
  )
}

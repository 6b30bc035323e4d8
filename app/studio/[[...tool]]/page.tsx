import type { Metadata } from 'next'
import { metadata as studioMetadata } from 'next-sanity/studio'
import { preloadModule } from 'react-dom'

import { isSanityConfigured } from '@/sanity/env'

import { Studio } from './studio'
import { StudioSetup } from './studio-setup'

// The Studio is a client app: the HTML is the same for everyone, so serve it as a static shell.
export const dynamic = 'force-static'

export { viewport } from 'next-sanity/studio'

export const metadata: Metadata = {
  ...studioMetadata,
  title: 'Vigia Studio',
}

// Sanity's bridge to its dashboard, loaded the way next-sanity's <NextStudio /> server component
// loads it (that component is not used here: it would pull the whole Studio into this route's
// first load, set-up page included).
const BRIDGE_SCRIPT = 'https://core.sanity-cdn.com/bridge.js'

export default function StudioPage() {
  // Without a project the Studio could only show a connection error; explain the set-up instead.
  if (!isSanityConfigured) return <StudioSetup />
  preloadModule(BRIDGE_SCRIPT, { as: 'script' })
  return (
    <>
      <script src={BRIDGE_SCRIPT} async type="module" data-sanity-core />
      <Studio />
    </>
  )
}

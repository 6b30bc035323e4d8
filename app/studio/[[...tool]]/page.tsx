import type { Metadata } from 'next'
import { NextStudio, metadata as studioMetadata } from 'next-sanity/studio'

import config from '@/sanity.config'
import { isSanityConfigured } from '@/sanity/env'

import { StudioSetup } from './studio-setup'

// The Studio is a client app: the HTML is the same for everyone, so serve it as a static shell.
export const dynamic = 'force-static'

export { viewport } from 'next-sanity/studio'

export const metadata: Metadata = {
  ...studioMetadata,
  title: 'Vigia Studio',
}

export default function StudioPage() {
  // Without a project the Studio could only show a connection error; explain the set-up instead.
  if (!isSanityConfigured) return <StudioSetup />
  return <NextStudio config={config} />
}

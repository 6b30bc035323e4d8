'use client'

import dynamic from 'next/dynamic'

// The Studio is several megabytes of JavaScript: load it only when it renders, so the set-up page
// shown without a project stays a light static page.
export const Studio = dynamic(() => import('./studio-app').then((module) => module.StudioApp), {
  ssr: false,
})

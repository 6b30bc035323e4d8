'use client'

import dynamic from 'next/dynamic'

/**
 * The demo form, as a chunk of its own: every client component a route imports loads on every
 * page of that route, so importing DemoForm directly would make each campaign page download the
 * form's code, with or without a form block. Through next/dynamic the chunk is referenced only
 * when the block renders (and server-rendered as usual, so the HTML still holds the whole form).
 * https://nextjs.org/docs/app/guides/lazy-loading
 */
export const LazyDemoForm = dynamic(() =>
  import('@/components/demo-form').then((module) => module.DemoForm),
)

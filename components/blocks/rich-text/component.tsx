import { PortableText, type PortableTextComponents } from '@portabletext/react'

import { ContentImage } from '@/components/content-image'
import { proseComponents } from '@/components/legal-text'
import { Container } from '@/components/ui/section'
import type { ContentImage as ContentImageValue } from '@/lib/content/image-url'

import { blockAnchor, type BlockProps } from '../types'

// Rendered on the server only, with the legal pages' text styles: plain elements, no renderer code.
const components: PortableTextComponents = {
  ...proseComponents,
  types: {
    image: ({ value }: { value: ContentImageValue }) =>
      value?.asset ? (
        <ContentImage
          image={value}
          sizes="(min-width: 800px) 768px, calc(100vw - 2rem)"
          className="mt-8 h-auto w-full rounded-2xl"
        />
      ) : null,
  },
}

/** Free text with subheadings, lists, links and images (Portable Text). */
export function RichTextBlock({ block }: BlockProps<'richTextBlock'>) {
  if (!block.body?.length) return null
  const id = blockAnchor(block)
  return (
    <section
      id={id}
      aria-labelledby={block.heading ? `${id}-titulo` : undefined}
      className="py-16 render-when-visible sm:py-24"
    >
      <Container>
        <div className="mx-auto max-w-3xl">
          {block.heading ? (
            <h2
              id={`${id}-titulo`}
              className="text-3xl font-bold tracking-tight text-balance text-navy-950 sm:text-4xl"
            >
              {block.heading}
            </h2>
          ) : null}
          <PortableText value={block.body} components={components} />
        </div>
      </Container>
    </section>
  )
}

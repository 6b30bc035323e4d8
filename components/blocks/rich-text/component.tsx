import { PortableText, type PortableTextComponents } from '@portabletext/react'

import { ContentImage } from '@/components/content-image'
import { Container } from '@/components/ui/section'
import type { ContentImage as ContentImageValue } from '@/lib/content/image-url'

import { blockAnchor, type BlockProps } from '../types'

// Rendered on the server only, like the legal pages' text: plain elements, no renderer code.
const components: PortableTextComponents = {
  block: {
    normal: ({ children }) => <p className="mt-4 leading-relaxed text-slate-700">{children}</p>,
    h3: ({ children }) => (
      <h3 className="mt-8 text-xl font-semibold text-balance text-navy-950">{children}</h3>
    ),
  },
  list: {
    bullet: ({ children }) => (
      <ul className="mt-4 list-disc space-y-2 pl-6 text-slate-700 marker:text-brand-700">
        {children}
      </ul>
    ),
    number: ({ children }) => (
      <ol className="mt-4 list-decimal space-y-2 pl-6 text-slate-700 marker:font-semibold">
        {children}
      </ol>
    ),
  },
  listItem: ({ children }) => <li className="pl-1 leading-relaxed">{children}</li>,
  marks: {
    strong: ({ children }) => <strong className="font-semibold text-navy-950">{children}</strong>,
    em: ({ children }) => <em>{children}</em>,
    link: ({ children, value }) => {
      const href = typeof value?.href === 'string' ? value.href : undefined
      return (
        <a
          href={href}
          rel={href?.startsWith('http') ? 'noopener noreferrer' : undefined}
          className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800"
        >
          {children}
        </a>
      )
    },
  },
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

import { PortableText, type PortableTextComponents } from '@portabletext/react'

import type { LegalPage } from '@/lib/content'

// Rendered on the server only: @portabletext/react turns the blocks into plain elements, so a
// legal page ships its text as HTML and no renderer code. Only what the legalPage schema allows
// is styled (h2, h3, lists, bold, links); anything else falls back to the library's plain output.
// Campaign pages' rich-text block uses the same styles, plus images.
export const proseComponents: PortableTextComponents = {
  block: {
    normal: ({ children }) => <p className="mt-4 leading-relaxed text-slate-700">{children}</p>,
    h2: ({ children }) => (
      <h2 className="mt-10 text-2xl font-bold tracking-tight text-balance text-navy-950">
        {children}
      </h2>
    ),
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
      // Other sites open where the reader is, like any link; rel keeps them from our window.
      const external = href?.startsWith('http')
      return (
        <a
          href={href}
          rel={external ? 'noopener noreferrer' : undefined}
          className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800"
        >
          {children}
        </a>
      )
    },
  },
}

export function LegalText({ body }: { body: LegalPage['body'] }) {
  if (!body || body.length === 0) return null
  return <PortableText value={body} components={proseComponents} />
}

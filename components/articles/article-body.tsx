import {
  PortableText,
  type PortableTextBlockComponent,
  type PortableTextComponents,
} from '@portabletext/react'

import { faqJsonLd, presentFaqItems } from '@/components/blocks/faq/json-ld'
import { ClaimFigure } from '@/components/claim-figure'
import { ContentImage } from '@/components/content-image'
import { Icon } from '@/components/icon'
import { proseComponents } from '@/components/legal-text'
import { ButtonLink } from '@/components/ui/button'
import type { TocEntry } from '@/lib/articles/text'
import type { Article } from '@/lib/content'
import { jsonLdScript } from '@/lib/site-metadata'

type Body = NonNullable<Article['body']>
type Item<T extends Body[number]['_type']> = Extract<Body[number], { _type: T }>

/** Where the demo calls lead: the home page's form. */
export const DEMO_HREF = '/#contato'

/**
 * An article's text, rendered on the server only (no renderer code in the browser): the legal
 * pages' prose styles, h2s with the anchors of the table of contents, quotes, images with their
 * captions, and the three article blocks (demo call, FAQ with its FAQPage data, claim figure).
 */
export function ArticleBody({ body, toc }: { body: Body; toc: readonly TocEntry[] }) {
  const anchors = new Map(toc.map((entry) => [entry.key, entry.id]))
  const components: PortableTextComponents = {
    ...proseComponents,
    block: {
      ...(proseComponents.block as Record<string, PortableTextBlockComponent>),
      h2: ({ children, value }) => (
        <h2
          id={value._key ? anchors.get(value._key) : undefined}
          className="mt-12 text-2xl font-bold tracking-tight text-balance text-navy-950"
        >
          {children}
        </h2>
      ),
      blockquote: ({ children }) => (
        <blockquote className="mt-6 rounded-2xl bg-slate-50 p-6 text-lg text-slate-700">
          {children}
        </blockquote>
      ),
    },
    types: {
      image: ({ value }: { value: Item<'image'> }) =>
        value?.asset ? (
          <figure className="mt-8">
            <ContentImage
              image={value}
              sizes="(min-width: 800px) 768px, calc(100vw - 2rem)"
              className="h-auto w-full rounded-2xl"
            />
            {value.caption ? (
              <figcaption className="mt-2 text-sm text-slate-600">{value.caption}</figcaption>
            ) : null}
          </figure>
        ) : null,
      claimFigure: ({ value }: { value: Item<'claimFigure'> }) =>
        value.claim?.value && value.claim.label ? (
          <dl className="mt-8 rounded-2xl border border-slate-200 bg-slate-50 p-6">
            <ClaimFigure claim={value.claim} />
          </dl>
        ) : null,
      articleCta: ({ value }: { value: Item<'articleCta'> }) => (
        <aside
          aria-label={value.heading ?? 'Solicitar demonstração'}
          className="mt-10 rounded-2xl bg-navy-950 p-6 text-white sm:p-8"
        >
          {value.heading ? <p className="text-xl font-bold text-balance">{value.heading}</p> : null}
          {value.text ? <p className="mt-2 text-pretty text-slate-300">{value.text}</p> : null}
          <ButtonLink href={DEMO_HREF} variant="signal" size="md" className="mt-5">
            {value.label ?? 'Solicitar Demonstração'}
            <Icon name="arrow-right" />
          </ButtonLink>
        </aside>
      ),
      faqBlock: ({ value }: { value: Item<'faqBlock'> }) => {
        const items = presentFaqItems(value.items)
        if (items.length === 0) return null
        return (
          <section aria-labelledby={`faq-${value._key}`} className="mt-12">
            <script
              type="application/ld+json"
              dangerouslySetInnerHTML={{ __html: jsonLdScript(faqJsonLd(items)) }}
            />
            <h2
              id={`faq-${value._key}`}
              className="text-2xl font-bold tracking-tight text-balance text-navy-950"
            >
              {value.heading ?? 'Perguntas frequentes'}
            </h2>
            {value.intro ? <p className="mt-3 text-slate-700">{value.intro}</p> : null}
            <div className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200">
              {items.map((item) => (
                <div key={item._key} className="p-5">
                  <h3 className="font-semibold text-navy-950">{item.question}</h3>
                  <p className="mt-2 whitespace-pre-line text-slate-700">{item.answer}</p>
                </div>
              ))}
            </div>
          </section>
        )
      },
    },
  }
  return <PortableText value={body} components={components} />
}

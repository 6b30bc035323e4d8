import { Section } from '@/components/ui/section'
import { jsonLdScript } from '@/lib/site-metadata'

import { blockAnchor, type BlockProps } from '../types'
import { faqJsonLd, presentFaqItems } from './json-ld'

/**
 * Questions and answers, all open (no accordion, so no client code, and every answer is visible
 * text), with the FAQPage structured data built from the same strings.
 */
export function FaqBlock({ block }: BlockProps<'faqBlock'>) {
  const items = presentFaqItems(block.items)
  if (items.length === 0) return null
  return (
    <Section id={blockAnchor(block)} intro={block} className="bg-slate-50">
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: jsonLdScript(faqJsonLd(items)) }}
      />
      <div className="mx-auto mt-12 max-w-3xl divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white shadow-sm">
        {items.map((item) => (
          <div key={item._key} className="p-6 sm:p-8">
            <h3 className="text-lg font-semibold text-navy-950">{item.question}</h3>
            <p className="mt-2 whitespace-pre-line text-slate-600">{item.answer}</p>
          </div>
        ))}
      </div>
    </Section>
  )
}

import { stegaClean } from 'next-sanity'

type Item = { question: string | null; answer: string | null }

/** Questions that have both halves: the only ones shown, and the only ones published. */
export function presentFaqItems<T extends Item>(items: T[] | null | undefined) {
  return (items ?? []).filter((item): item is T & { question: string; answer: string } =>
    Boolean(item.question?.trim() && item.answer?.trim()),
  )
}

/**
 * schema.org FAQPage from exactly the text the block shows, so the structured data never claims
 * what the page does not say (https://developers.google.com/search/docs/appearance/structured-data/faqpage).
 * In draft mode the texts carry invisible stega characters for click-to-edit; they are removed here.
 */
export function faqJsonLd(items: Item[] | null | undefined) {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: presentFaqItems(items).map((item) => ({
      '@type': 'Question',
      name: stegaClean(item.question),
      acceptedAnswer: { '@type': 'Answer', text: stegaClean(item.answer) },
    })),
  }
}

import { stegaClean } from 'next-sanity'

import { slugify } from '@/lib/text/slugify'

// Plain-text views of an article's Portable Text body: the words a reader reads (reading time),
// and its h2 sections with the anchors the page gives them (table of contents).

type Span = { _type?: string; text?: string | null }
type BodyItem = {
  _type: string
  _key: string
  style?: string | null
  children?: Span[] | null
  caption?: string | null
  heading?: string | null
  text?: string | null
  intro?: string | null
  items?: Array<{ question?: string | null; answer?: string | null }> | null
  claim?: { value?: string | null; label?: string | null; sourceNote?: string | null } | null
}

/** The text of a Portable Text block (its spans joined), without stega characters. */
export function blockText(block: { children?: Span[] | null }): string {
  return stegaClean((block.children ?? []).map((span) => span.text ?? '').join(''))
}

/** Every piece of text a reader goes through in the body, in order. */
export function bodyTexts(body: readonly BodyItem[] | null | undefined): string[] {
  return (body ?? []).flatMap((item) => {
    switch (item._type) {
      case 'block':
        return [blockText(item)]
      case 'image':
        return [item.caption ?? '']
      case 'articleCta':
        return [item.heading ?? '', item.text ?? '']
      case 'faqBlock':
        return [
          item.heading ?? '',
          item.intro ?? '',
          ...(item.items ?? []).flatMap((faq) => [faq.question ?? '', faq.answer ?? '']),
        ]
      case 'claimFigure':
        return [item.claim?.value ?? '', item.claim?.label ?? '', item.claim?.sourceNote ?? '']
      default:
        return []
    }
  })
}

/** Words per minute of an adult reading Portuguese on a screen: a common, rounded figure. */
export const WORDS_PER_MINUTE = 200

export function wordCount(texts: readonly string[]): number {
  return texts.reduce(
    (total, text) =>
      total + (stegaClean(text).match(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu)?.length ?? 0),
    0,
  )
}

/** Whole minutes to read the body (and the title and summary), at least 1. */
export function readingMinutes(
  body: readonly BodyItem[] | null | undefined,
  extra: readonly (string | null | undefined)[] = [],
): number {
  const words = wordCount([...extra.map((text) => text ?? ''), ...bodyTexts(body)])
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE))
}

/** "5 min de leitura". */
export function readingTimeLabel(minutes: number): string {
  return `${minutes} min de leitura`
}

/** An anchor from a heading: "Base legal e informação" → "base-legal-e-informacao". */
export function slugifyHeading(text: string): string {
  return slugify(stegaClean(text), 60) || 'secao'
}

// Ids the page already uses: a heading must not take them.
const TAKEN_IDS = new Set(['conteudo', 'contato', 'sumario', 'relacionados', 'demonstracao'])

export type TocEntry = { key: string; id: string; text: string }

/** The body's h2 sections, each with a unique anchor, in order. */
export function tableOfContents(body: readonly BodyItem[] | null | undefined): TocEntry[] {
  const used = new Set(TAKEN_IDS)
  return (body ?? []).flatMap((item) => {
    if (item._type !== 'block' || item.style !== 'h2') return []
    const text = blockText(item).trim()
    if (!text) return []
    const base = slugifyHeading(text)
    let id = base
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`
    used.add(id)
    return [{ key: item._key, id, text }]
  })
}

/** A table of contents is shown from this many sections on: shorter articles need none. */
export const TOC_MIN_SECTIONS = 3

/**
 * The body split where its first h2 starts: the introduction (every block before it) and the
 * sections, one list per h2 and what follows it. The cover goes between them, so a phone's first
 * screen is the title and the opening text, painted with the HTML, and not an image that needs one
 * more round trip; each section is laid out only when it comes near the screen (docs/speed.md).
 * A body that starts with an h2 has no introduction.
 */
export function splitIntroduction<T extends BodyItem>(
  body: readonly T[] | null | undefined,
): { introduction: T[]; sections: T[][] } {
  const introduction: T[] = []
  const sections: T[][] = []
  for (const item of body ?? []) {
    if (item._type === 'block' && item.style === 'h2') sections.push([item])
    else (sections.at(-1) ?? introduction).push(item)
  }
  return { introduction, sections }
}

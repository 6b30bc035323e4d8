import { ContentImage } from '@/components/content-image'
import { Icon } from '@/components/icon'
import { ButtonLink } from '@/components/ui/button'
import type { ContentImage as ContentImageValue } from '@/lib/content/image-url'
import { cn } from '@/lib/utils'
import { materialPath } from '@/sanity/lib/paths'

/** A material as a card shows it (materialCardProjection): never its file. */
export type MaterialCardData = {
  title?: string | null
  slug?: string | null
  description?: string | null
  cover?: ContentImageValue | null
}

type Props = {
  material: MaterialCardData
  /** The card's heading level: h2 in a list of its own, h3 under a block's or article's h2. */
  headingLevel?: 2 | 3
  headingId?: string
  eyebrow?: string | null
  buttonLabel?: string | null
  /** A wide card (cover beside the text from `sm`), as a block or an article's end shows it. */
  wide?: boolean
}

/**
 * A material's cover, title, description and a button to its page, where its form is. Shared by
 * the list at /materiais, the "Material em destaque" block and the end of an article.
 */
export function MaterialCard({
  material,
  headingLevel = 2,
  headingId,
  eyebrow,
  buttonLabel,
  wide = false,
}: Props) {
  if (!material.slug || !material.title) return null
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <article
      className={cn(
        'flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm',
        wide && 'sm:flex-row sm:p-8',
      )}
    >
      {material.cover ? (
        // A wide card's cover keeps to 12rem by a width of its own, not a utility class: the
        // stylesheet is every page's (scripts/lib/page-weight.mjs).
        <div className="w-full shrink-0" style={wide ? { maxWidth: '12rem' } : undefined}>
          <ContentImage
            image={material.cover}
            sizes={wide ? '(min-width: 640px) 192px, 100vw' : '(min-width: 1024px) 360px, 100vw'}
            className="h-auto w-full rounded-lg border border-slate-200"
          />
        </div>
      ) : null}
      <div className="flex flex-1 flex-col items-start">
        {eyebrow ? (
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>
        ) : null}
        <Heading
          id={headingId}
          className="mt-1 text-2xl font-bold tracking-tight text-balance text-navy-950"
        >
          {material.title}
        </Heading>
        {material.description ? (
          <p className="mt-3 text-pretty text-slate-600">{material.description}</p>
        ) : null}
        <ButtonLink href={materialPath(material.slug)} className="mt-6">
          {buttonLabel || 'Quero o material'}
          <Icon name="arrow-right" />
        </ButtonLink>
      </div>
    </article>
  )
}

import type { ReactNode } from 'react'

import { ContentImage } from '@/components/content-image'
import type { ContentImage as ContentImageValue } from '@/lib/content/image-url'
import { cn } from '@/lib/utils'

export function Container({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div className={cn('mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8', className)}>{children}</div>
  )
}

/**
 * A part of a block laid out only when near the screen (app/globals.css), with the height it is
 * taken to have until then: about a card's. Also what keeps a form's section cheap at load: Chrome's
 * autofill styles and lays out every field's lazy ancestors then, skipped or not, so the parts
 * beside the fields (cards, figures, contact details) are lazy parts of their own (docs/speed.md).
 */
export const LAZY_PART = 'render-when-visible [--render-size:30rem]'

export type SectionIntro = {
  eyebrow?: string | null
  heading?: string | null
  intro?: string | null
  visual?: ContentImageValue | null
} | null

/** The opening of every content section: eyebrow, h2 and introduction, each optional. */
function SectionHeading({ id, intro }: { id: string; intro: SectionIntro }) {
  if (!intro?.eyebrow && !intro?.heading && !intro?.intro) return null
  return (
    <div className="mx-auto max-w-3xl text-center">
      {intro.eyebrow ? (
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
          {intro.eyebrow}
        </p>
      ) : null}
      {intro.heading ? (
        <h2
          id={`${id}-titulo`}
          className="mt-2 text-3xl font-bold tracking-tight text-balance text-navy-950 sm:text-4xl"
        >
          {intro.heading}
        </h2>
      ) : null}
      {intro.intro ? (
        <p className="mt-4 text-lg text-pretty text-slate-600">{intro.intro}</p>
      ) : null}
      {intro.visual?.asset ? (
        <ContentImage
          image={intro.visual}
          sizes="(min-width: 704px) 672px, calc(100vw - 2rem)"
          className="mx-auto mt-10 h-auto w-full max-w-2xl rounded-2xl"
        />
      ) : null}
    </div>
  )
}

/** A content section: its anchor, its CMS-written opening (labelling it), then its content. */
export function Section({
  id,
  intro,
  className,
  children,
}: {
  id: string
  intro: SectionIntro
  className?: string
  children: ReactNode
}) {
  return (
    <section
      id={id}
      aria-labelledby={intro?.heading ? `${id}-titulo` : undefined}
      className={cn('py-16 render-when-visible sm:py-24', className)}
    >
      <Container>
        <SectionHeading id={id} intro={intro} />
        {children}
      </Container>
    </section>
  )
}

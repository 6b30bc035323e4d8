import { Icon } from '@/components/icon'
import { ButtonLink } from '@/components/ui/button'
import { Container } from '@/components/ui/section'

import { blockAnchor, type BlockProps } from '../types'

/** A dark band with one sentence and one or two buttons, between sections. */
export function CtaBandBlock({ block }: BlockProps<'ctaBandBlock'>) {
  const id = blockAnchor(block)
  const external = (href: string) => href.startsWith('http')
  return (
    <section
      id={id}
      aria-labelledby={block.heading ? `${id}-titulo` : undefined}
      className="bg-navy-950 py-14 text-white render-when-visible sm:py-20"
    >
      <Container className="flex flex-col items-start gap-8 lg:flex-row lg:items-center lg:justify-between">
        <div className="max-w-2xl">
          {block.heading ? (
            <h2
              id={`${id}-titulo`}
              className="text-3xl font-bold tracking-tight text-balance sm:text-4xl"
            >
              {block.heading}
            </h2>
          ) : null}
          {block.text ? (
            <p className="mt-4 text-lg text-pretty text-slate-300">{block.text}</p>
          ) : null}
        </div>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          {block.primaryCta?.label && block.primaryCta.href ? (
            <ButtonLink
              href={block.primaryCta.href}
              variant="signal"
              size="lg"
              {...(external(block.primaryCta.href) ? { rel: 'noopener noreferrer' } : {})}
            >
              {block.primaryCta.label}
              <Icon name="arrow-right" />
            </ButtonLink>
          ) : null}
          {block.secondaryCta?.label && block.secondaryCta.href ? (
            <ButtonLink
              href={block.secondaryCta.href}
              variant="outline"
              size="lg"
              {...(external(block.secondaryCta.href) ? { rel: 'noopener noreferrer' } : {})}
            >
              {block.secondaryCta.label}
            </ButtonLink>
          ) : null}
        </div>
      </Container>
    </section>
  )
}

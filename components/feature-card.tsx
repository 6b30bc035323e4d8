import { Icon } from '@/components/icon'
import type { LandingPage } from '@/lib/content'
import { cn } from '@/lib/utils'

export type Card = NonNullable<NonNullable<NonNullable<LandingPage['sobre']>['points']>[number]>

/** Cards with neither title nor description carry nothing to show; drop them. */
export function presentCards(cards: Card[] | null | undefined): Card[] {
  return (cards ?? []).filter((card) => Boolean(card.title || card.description))
}

export function FeatureCard({
  card,
  headingLevel = 'h3',
  className,
}: {
  card: Card
  headingLevel?: 'h3' | 'h4'
  className?: string
}) {
  const Heading = headingLevel
  const claim = card.claim?.value && card.claim.label ? card.claim : null
  return (
    <article
      className={cn(
        'flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm',
        className,
      )}
    >
      <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700">
        <Icon name={card.icon} className="size-6" />
      </span>
      {card.title ? (
        <Heading className="mt-5 text-lg font-semibold text-navy-950">{card.title}</Heading>
      ) : null}
      {card.description ? <p className="mt-2 text-slate-600">{card.description}</p> : null}
      {claim ? (
        <p className="mt-auto pt-5 text-sm text-slate-600">
          <span className="text-2xl font-bold text-brand-700 tabular-nums">{claim.value}</span>{' '}
          <span className="font-medium">{claim.label}</span>
        </p>
      ) : null}
    </article>
  )
}

/** The cards of a section in a responsive grid; nothing at all when none has content. */
export function FeatureCardGrid({
  cards,
  className,
  cardClassName,
}: {
  cards: Card[] | null | undefined
  className: string
  cardClassName?: string
}) {
  const present = presentCards(cards)
  if (present.length === 0) return null
  return (
    <div className={cn('mt-12 grid gap-6', className)}>
      {present.map((card) => (
        <FeatureCard key={card._key} card={card} className={cardClassName} />
      ))}
    </div>
  )
}

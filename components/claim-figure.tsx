import type { LandingPage } from '@/lib/content'
import { cn } from '@/lib/utils'

export type Claim = NonNullable<NonNullable<NonNullable<LandingPage['hero']>['stats']>[number]>

/** Claims whose reference is broken come back as null from GROQ; drop them. */
export function presentClaims(claims: Array<Claim | null> | null | undefined): Claim[] {
  return (claims ?? []).filter((claim): claim is Claim => Boolean(claim?.value && claim.label))
}

const TONES = {
  light: { value: 'text-brand-700', label: 'text-slate-600', note: 'text-slate-500' },
  dark: { value: 'text-signal-400', label: 'text-slate-300', note: 'text-slate-400' },
  brand: { value: 'text-white', label: 'text-brand-50', note: 'text-brand-100' },
}

/**
 * A marketing figure inside a <dl>: the label is the term and the value its description (so a
 * screen reader says "Precisão de detecção: 98,5%"), while the value is drawn first and large.
 */
export function ClaimFigure({
  claim,
  tone = 'light',
  size = 'lg',
}: {
  claim: Claim
  tone?: keyof typeof TONES
  size?: 'md' | 'lg'
}) {
  const colors = TONES[tone]
  return (
    <div className="flex flex-col">
      <dt className={cn('order-2 mt-1 text-sm font-medium', colors.label)}>{claim.label}</dt>
      <dd
        className={cn(
          'order-1 font-bold tracking-tight tabular-nums',
          size === 'lg' ? 'text-3xl' : 'text-2xl',
          colors.value,
        )}
      >
        {claim.value}
      </dd>
      {claim.sourceNote ? (
        <dd className={cn('order-3 mt-1 text-xs', colors.note)}>{claim.sourceNote}</dd>
      ) : null}
    </div>
  )
}

import { ClaimFigure, presentClaims, type Claim } from '@/components/claim-figure'
import { FeatureCardGrid, type Card } from '@/components/feature-card'
import { Icon } from '@/components/icon'
import { RoiCalculatorPanel } from '@/components/roi-calculator-panel'
import { LAZY_PART, Section, type SectionIntro } from '@/components/ui/section'
import type { LandingPage, RoiCalculatorContent } from '@/lib/content'
import { cn } from '@/lib/utils'

type Market = NonNullable<NonNullable<LandingPage['beneficios']>['markets']>[number]

type Props = {
  beneficios:
    | (NonNullable<SectionIntro> & {
        cards?: Card[] | null
        roiTitle?: string | null
        roiDescription?: string | null
        roiFigures?: Array<Claim | null> | null
        marketsTitle?: string | null
        markets?: Market[] | null
      })
    | null
  /** The section's anchor: #beneficios on the home page, the block's own on a campaign page. */
  id?: string
  /** The savings calculator, inside the ROI block (the home page); the block then spans the row. */
  calculator?: RoiCalculatorContent | null
}

export function Benefits({ beneficios, id = 'beneficios', calculator }: Props) {
  const roiFigures = presentClaims(beneficios?.roiFigures)
  const markets = (beneficios?.markets ?? []).filter((market) => Boolean(market.name))
  return (
    <Section id={id} intro={beneficios} className="bg-slate-50">
      {/* The calculator's fields make Chrome lay out this section at load: all beside them are lazy
          parts. Each card on its own, since a lazy grid would clip its cards' shadows. */}
      <FeatureCardGrid
        cards={beneficios?.cards}
        className="sm:grid-cols-2 lg:grid-cols-3"
        cardClassName={LAZY_PART}
      />

      <div className="mt-12 grid gap-6 lg:grid-cols-5">
        {roiFigures.length > 0 || beneficios?.roiTitle || calculator ? (
          <div
            className={cn(
              'rounded-2xl bg-brand-700 p-6 text-white sm:p-8',
              calculator ? 'lg:col-span-5' : 'lg:col-span-3',
            )}
          >
            {beneficios?.roiTitle ? (
              <h3 className="text-xl font-semibold">{beneficios.roiTitle}</h3>
            ) : null}
            {beneficios?.roiDescription ? (
              <p className="mt-2 text-brand-50">{beneficios.roiDescription}</p>
            ) : null}
            {roiFigures.length > 0 ? (
              <dl className={cn('mt-6 grid gap-6 sm:grid-cols-3', LAZY_PART)}>
                {roiFigures.map((claim) => (
                  <ClaimFigure key={claim._id} claim={claim} tone="brand" />
                ))}
              </dl>
            ) : null}
            <RoiCalculatorPanel
              calculator={calculator}
              headingLevel={beneficios?.roiTitle ? 'h4' : 'h3'}
              className="mt-8"
            />
          </div>
        ) : null}

        {markets.length > 0 ? (
          <div
            className={cn(
              'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8',
              calculator ? 'lg:col-span-5' : 'lg:col-span-2',
              LAZY_PART,
            )}
          >
            {beneficios?.marketsTitle ? (
              <h3 className="text-xl font-semibold text-navy-950">{beneficios.marketsTitle}</h3>
            ) : null}
            <ul className={cn('mt-5 gap-4', calculator ? 'grid lg:grid-cols-3' : 'space-y-4')}>
              {markets.map((market) => (
                <li key={market._key} className="flex gap-3">
                  <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-brand-50 text-brand-700">
                    <Icon name={market.icon} className="size-5" />
                  </span>
                  <div>
                    <p className="font-semibold text-navy-950">
                      {market.name}
                      {market.badge ? (
                        <span className="ml-2 rounded-full bg-signal-300 px-2 py-0.5 align-middle text-xs font-semibold text-navy-900">
                          {market.badge}
                        </span>
                      ) : null}
                    </p>
                    {market.description ? (
                      <p className="text-sm text-slate-600">{market.description}</p>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </Section>
  )
}

import { ClaimFigure, presentClaims, type Claim } from '@/components/claim-figure'
import { FeatureCardGrid, type Card } from '@/components/feature-card'
import { Section, type SectionIntro } from '@/components/ui/section'

type Props = {
  tecnologia:
    | (NonNullable<SectionIntro> & {
        cards?: Card[] | null
        specTitle?: string | null
        specs?: Array<Claim | null> | null
      })
    | null
  /** The section's anchor: #tecnologia on the home page, the block's own on a campaign page. */
  id?: string
}

export function Technology({ tecnologia, id = 'tecnologia' }: Props) {
  const specs = presentClaims(tecnologia?.specs)
  return (
    <Section id={id} intro={tecnologia}>
      <FeatureCardGrid cards={tecnologia?.cards} className="sm:grid-cols-2 lg:grid-cols-3" />
      {specs.length > 0 ? (
        <div className="mt-12 rounded-2xl bg-navy-950 p-6 text-white sm:p-10">
          {tecnologia?.specTitle ? (
            <h3 className="text-xl font-semibold">{tecnologia.specTitle}</h3>
          ) : null}
          <dl className="mt-6 grid grid-cols-2 gap-x-6 gap-y-8 sm:grid-cols-3 lg:grid-cols-4">
            {specs.map((claim) => (
              <ClaimFigure key={claim._id} claim={claim} tone="dark" size="md" />
            ))}
          </dl>
        </div>
      ) : null}
    </Section>
  )
}

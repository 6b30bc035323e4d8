import { FeatureCard, presentCards } from '@/components/feature-card'
import { Section, SectionHeading } from '@/components/ui/section'
import type { LandingPage } from '@/lib/content'

export function About({ sobre }: { sobre: LandingPage['sobre'] }) {
  const points = presentCards(sobre?.points)
  return (
    <Section id="sobre" labelled={Boolean(sobre?.heading)}>
      <SectionHeading
        id="sobre"
        eyebrow={sobre?.eyebrow}
        heading={sobre?.heading}
        intro={sobre?.intro}
      />
      {points.length > 0 ? (
        <div className="mt-12 grid gap-6 md:grid-cols-3">
          {points.map((card) => (
            <FeatureCard key={card._key} card={card} />
          ))}
        </div>
      ) : null}
    </Section>
  )
}

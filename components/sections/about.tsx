import { FeatureCardGrid } from '@/components/feature-card'
import { Section } from '@/components/ui/section'
import type { LandingPage } from '@/lib/content'

export function About({ sobre }: { sobre: LandingPage['sobre'] }) {
  return (
    <Section id="sobre" intro={sobre}>
      <FeatureCardGrid cards={sobre?.points} className="md:grid-cols-3" />
    </Section>
  )
}

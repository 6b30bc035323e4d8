import { MaterialCard } from '@/components/materials/material-card'
import { Container } from '@/components/ui/section'

import { blockAnchor, type BlockProps } from '../types'

/**
 * One material, featured: its cover, title and description, and a button to its page. lib/content
 * getCampaignPage drops a material outside its window (and has the page expire at its next start
 * or end), so the block never leads to a page that answers 404.
 */
export function MaterialFeatureBlock({ block }: BlockProps<'materialFeatureBlock'>) {
  const material = block.material
  if (!material?.slug) return null
  const id = blockAnchor(block)
  return (
    <section
      id={id}
      aria-labelledby={`${id}-titulo`}
      className="bg-slate-50 py-14 render-when-visible sm:py-20"
    >
      <Container className="max-w-4xl">
        <MaterialCard
          material={material}
          headingLevel={2}
          headingId={`${id}-titulo`}
          eyebrow={block.eyebrow || 'Material gratuito'}
          buttonLabel={block.buttonLabel}
          wide
        />
      </Container>
    </section>
  )
}

import type { ComponentType } from 'react'

import { BenefitsBlock } from './benefits/component'
import { CardGridBlock } from './card-grid/component'
import { CtaBandBlock } from './cta-band/component'
import { DemoFormBlock } from './demo-form/component'
import { FaqBlock } from './faq/component'
import { HeroBlock } from './hero/component'
import { LatestArticlesBlock } from './latest-articles/component'
import { MaterialFeatureBlock } from './material-feature/component'
import { RichTextBlock } from './rich-text/component'
import { RoiCalculatorBlock } from './roi-calculator/component'
import { StepsBlock } from './steps/component'
import type { BlockProps, BlockType } from './types'

/**
 * The last of a block's three registration lists (docs/content.md, "Adding a block"): the
 * component of every block type CAMPAIGN_PAGE_QUERY projects. Typed over the query's block union,
 * so a block whose fragment is in the query but whose component is missing here fails
 * `npm run typecheck`; tests/unit/block-registry.test.ts
 * checks the same against the schema at run time. Server components only: a block with no
 * interaction ships no JavaScript (the form is the one island).
 */
export const BLOCK_COMPONENTS: { [T in BlockType]: ComponentType<BlockProps<T>> } = {
  heroBlock: HeroBlock,
  stepsBlock: StepsBlock,
  cardGridBlock: CardGridBlock,
  benefitsBlock: BenefitsBlock,
  ctaBandBlock: CtaBandBlock,
  demoFormBlock: DemoFormBlock,
  faqBlock: FaqBlock,
  richTextBlock: RichTextBlock,
  latestArticlesBlock: LatestArticlesBlock,
  roiCalculatorBlock: RoiCalculatorBlock,
  materialFeatureBlock: MaterialFeatureBlock,
}

import { benefitsBlockType } from './benefits/schema'
import { cardGridBlockType } from './card-grid/schema'
import { ctaBandBlockType } from './cta-band/schema'
import { demoFormBlockType } from './demo-form/schema'
import { faqBlockType } from './faq/schema'
import { heroBlockType } from './hero/schema'
import { latestArticlesBlockType } from './latest-articles/schema'
import { materialFeatureBlockType } from './material-feature/schema'
import { richTextBlockType } from './rich-text/schema'
import { roiCalculatorBlockType } from './roi-calculator/schema'
import { stepsBlockType } from './steps/schema'

/**
 * The first of a block's three registration lists: every block a campaign page may hold, in the
 * order the Studio's "Adicionar bloco" menu lists them. The other two are its GROQ fragment
 * (blocks/fragments.ts) and its component (blocks/components.tsx);
 * tests/unit/block-registry.test.ts fails when one is missing. docs/content.md, "Adding a block".
 */
export const BLOCK_SCHEMA_TYPES = [
  heroBlockType,
  stepsBlockType,
  cardGridBlockType,
  benefitsBlockType,
  ctaBandBlockType,
  demoFormBlockType,
  faqBlockType,
  richTextBlockType,
  latestArticlesBlockType,
  roiCalculatorBlockType,
  materialFeatureBlockType,
]

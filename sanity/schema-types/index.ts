import type { SchemaTypeDefinition } from 'sanity'

import { BLOCK_SCHEMA_TYPES } from '../../components/blocks/schemas'
import { announcementType } from './announcement'
import { articleCtaType, articleType, claimFigureType } from './article'
import { authorType } from './author'
import { campaignPageType } from './campaign-page'
import { categoryType } from './category'
import { experimentType } from './experiment'
import { claimType } from './claim'
import { landingPageType } from './landing-page'
import { legalPageType } from './legal-page'
import { materialType } from './material'
import { featureCardType, linkType, marketType } from './objects'
import { redirectType } from './redirect'
import { reviewLinkType } from './review-link'
import { roiCalculatorType } from './roi-calculator'
import { siteSettingsType } from './site-settings'

export const schemaTypes: SchemaTypeDefinition[] = [
  landingPageType,
  siteSettingsType,
  claimType,
  roiCalculatorType,
  legalPageType,
  campaignPageType,
  redirectType,
  announcementType,
  reviewLinkType,
  experimentType,
  materialType,
  articleType,
  categoryType,
  authorType,
  articleCtaType,
  claimFigureType,
  featureCardType,
  marketType,
  linkType,
  ...BLOCK_SCHEMA_TYPES,
]

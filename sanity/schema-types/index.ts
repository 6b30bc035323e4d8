import type { SchemaTypeDefinition } from 'sanity'

import { BLOCK_SCHEMA_TYPES } from '../../components/blocks/schemas'
import { announcementType } from './announcement'
import { campaignPageType } from './campaign-page'
import { claimType } from './claim'
import { landingPageType } from './landing-page'
import { legalPageType } from './legal-page'
import { featureCardType, linkType, marketType } from './objects'
import { redirectType } from './redirect'
import { reviewLinkType } from './review-link'
import { siteSettingsType } from './site-settings'

export const schemaTypes: SchemaTypeDefinition[] = [
  landingPageType,
  siteSettingsType,
  claimType,
  legalPageType,
  campaignPageType,
  redirectType,
  announcementType,
  reviewLinkType,
  featureCardType,
  marketType,
  linkType,
  ...BLOCK_SCHEMA_TYPES,
]

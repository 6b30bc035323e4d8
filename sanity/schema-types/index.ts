import type { SchemaTypeDefinition } from 'sanity'

import { claimType } from './claim'
import { landingPageType } from './landing-page'
import { legalPageType } from './legal-page'
import { featureCardType, linkType, marketType } from './objects'
import { siteSettingsType } from './site-settings'

export const schemaTypes: SchemaTypeDefinition[] = [
  landingPageType,
  siteSettingsType,
  claimType,
  legalPageType,
  featureCardType,
  marketType,
  linkType,
]

import 'server-only'

import { serverEnv } from '@/lib/env'
import { dataset, projectId } from '@/sanity/env'

import { SANITY_IMAGE_CDN, type ImageHost } from './image-url'

/**
 * Where Content Lake images are served from. Sanity's CDN resizes them (docs/content.md, "Images"); the
 * page's CSP allows this one origin (next.config.ts reads the same variable).
 */
export const contentImageHost: ImageHost = {
  projectId,
  dataset,
  baseUrl: serverEnv.sanityImageHost ?? SANITY_IMAGE_CDN,
}

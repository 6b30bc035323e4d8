'use client'

import { visionTool } from '@sanity/vision'
import { defineConfig } from 'sanity'
import { structureTool } from 'sanity/structure'

import { apiVersion, dataset, projectId } from './sanity/env'
import { schemaTypes } from './sanity/schema-types'

export default defineConfig({
  name: 'default',
  title: 'Vigia',
  basePath: '/studio',
  // The CLI (schema extract, typegen) needs a syntactically valid id even with no project set.
  projectId: projectId || 'unconfigured',
  dataset,
  schema: { types: schemaTypes },
  plugins: [structureTool(), visionTool({ defaultApiVersion: apiVersion })],
})

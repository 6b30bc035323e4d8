import { defineType } from 'sanity'

import { ctaButtonFields, ctaTextFields } from '../../../sanity/schema-types/objects'
import { blockPreview } from '../shared-schema'

export const ctaBandBlockType = defineType({
  name: 'ctaBandBlock',
  title: 'Faixa de chamada',
  description: 'Uma faixa de destaque com uma frase e um ou dois botões.',
  type: 'object',
  fields: [...ctaTextFields, ...ctaButtonFields],
  preview: blockPreview('Faixa de chamada'),
})

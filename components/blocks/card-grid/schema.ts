import { defineField, defineType } from 'sanity'

import { claimListField } from '../../../sanity/schema-types/objects'
import { blockIntroFields, blockPreview, cardsField } from '../shared-schema'

export const cardGridBlockType = defineType({
  name: 'cardGridBlock',
  title: 'Cartões e painel técnico',
  description: 'Uma grade de cartões e, opcionalmente, o painel de especificações técnicas.',
  type: 'object',
  fields: [
    ...blockIntroFields,
    cardsField('cards', 'Cartões', 1, 9),
    defineField({
      name: 'specTitle',
      title: 'Título do painel técnico (opcional)',
      type: 'string',
      validation: (rule) => rule.max(60),
    }),
    claimListField('specs', 'Especificações técnicas (opcional)', 8),
  ],
  preview: blockPreview('Cartões e painel técnico'),
})

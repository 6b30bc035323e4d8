import { defineArrayMember, defineField, defineType } from 'sanity'

import { claimListField } from '../../../sanity/schema-types/objects'
import { blockIntroFields, blockPreview, cardsField } from '../shared-schema'

export const benefitsBlockType = defineType({
  name: 'benefitsBlock',
  title: 'Benefícios, ROI e mercados',
  description: 'Cartões de benefícios, o bloco de retorno sobre o investimento e os mercados.',
  type: 'object',
  fields: [
    ...blockIntroFields,
    cardsField('cards', 'Benefícios', 1, 9),
    defineField({
      name: 'roiTitle',
      title: 'Título do bloco de ROI (opcional)',
      type: 'string',
      validation: (rule) => rule.max(60),
    }),
    defineField({
      name: 'roiDescription',
      title: 'Texto do bloco de ROI (opcional)',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.max(240),
    }),
    claimListField('roiFigures', 'Números do ROI', 4),
    defineField({
      name: 'marketsTitle',
      title: 'Título dos mercados (opcional)',
      type: 'string',
      validation: (rule) => rule.max(40),
    }),
    defineField({
      name: 'markets',
      title: 'Mercados (opcional)',
      type: 'array',
      of: [defineArrayMember({ type: 'market' })],
      validation: (rule) => rule.max(4),
    }),
  ],
  preview: blockPreview('Benefícios, ROI e mercados'),
})

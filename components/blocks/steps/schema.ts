import { defineType } from 'sanity'

import { blockIntroFields, blockPreview, cardsField } from '../shared-schema'

export const stepsBlockType = defineType({
  name: 'stepsBlock',
  title: 'Etapas',
  description: 'Passos numerados, como "Como funciona" na página inicial.',
  type: 'object',
  fields: [...blockIntroFields, cardsField('steps', 'Etapas', 2, 6)],
  preview: blockPreview('Etapas'),
})

import { defineField, defineType } from 'sanity'

import { blockIntroFields, blockPreview } from '../shared-schema'

export const latestArticlesBlockType = defineType({
  name: 'latestArticlesBlock',
  title: 'Últimos artigos',
  description:
    'Os artigos mais recentes (de todas as categorias ou de uma só), atualizados sozinhos a cada publicação.',
  type: 'object',
  fields: [
    ...blockIntroFields,
    defineField({
      name: 'count',
      title: 'Quantos artigos',
      type: 'number',
      initialValue: 3,
      validation: (rule) => rule.required().integer().min(1).max(12),
    }),
    defineField({
      name: 'category',
      title: 'Só desta categoria (opcional)',
      type: 'reference',
      to: [{ type: 'category' }],
    }),
  ],
  preview: blockPreview('Últimos artigos'),
})

import { defineArrayMember, defineField, defineType } from 'sanity'

import { requiredString } from '../../../sanity/schema-types/objects'
import { blockIntroFields, blockPreview } from '../shared-schema'

export const faqBlockType = defineType({
  name: 'faqBlock',
  title: 'Perguntas frequentes',
  description:
    'Perguntas e respostas, publicadas também como dados estruturados (FAQPage) com o mesmo texto, para buscadores.',
  type: 'object',
  fields: [
    ...blockIntroFields,
    defineField({
      name: 'items',
      title: 'Perguntas',
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'faqItem',
          title: 'Pergunta',
          fields: [
            requiredString('question', 'Pergunta', 140),
            defineField({
              name: 'answer',
              title: 'Resposta',
              description: 'Texto simples: é o mesmo texto que os buscadores recebem.',
              type: 'text',
              rows: 4,
              validation: (rule) => rule.required().max(700),
            }),
          ],
          preview: { select: { title: 'question', subtitle: 'answer' } },
        }),
      ],
      validation: (rule) => rule.required().min(1).max(12),
    }),
  ],
  preview: blockPreview('Perguntas frequentes'),
})

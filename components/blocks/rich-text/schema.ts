import { defineField, defineType } from 'sanity'

import { textBlock, textImage } from '../../../sanity/schema-types/portable-text'

export const richTextBlockType = defineType({
  name: 'richTextBlock',
  title: 'Texto livre',
  description: 'Texto com subtítulos, listas, links e imagens.',
  type: 'object',
  fields: [
    defineField({
      name: 'heading',
      title: 'Título (opcional)',
      type: 'string',
      validation: (rule) => rule.max(90),
    }),
    defineField({
      name: 'body',
      title: 'Texto',
      type: 'array',
      of: [
        // h2 is the heading above; inside the text, subheadings are h3.
        textBlock({
          styles: [
            { title: 'Parágrafo', value: 'normal' },
            { title: 'Subtítulo', value: 'h3' },
          ],
          linkDescription: 'Um caminho do site ("/p/onibus"), "#contato", https:// ou mailto:.',
        }),
        textImage(),
      ],
      validation: (rule) => rule.required().min(1),
    }),
  ],
  preview: {
    select: { title: 'heading' },
    prepare: ({ title }: { title?: string }) => ({
      title: title ?? 'Texto livre',
      subtitle: 'Texto livre',
    }),
  },
})

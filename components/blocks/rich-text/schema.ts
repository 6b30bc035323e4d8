import { defineArrayMember, defineField, defineType } from 'sanity'

import { ALT_MAX_LENGTH } from '../../../sanity/schema-types/objects'

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
        defineArrayMember({
          type: 'block',
          // h2 is the heading above; inside the text, subheadings are h3.
          styles: [
            { title: 'Parágrafo', value: 'normal' },
            { title: 'Subtítulo', value: 'h3' },
          ],
          lists: [
            { title: 'Lista', value: 'bullet' },
            { title: 'Lista numerada', value: 'number' },
          ],
          marks: {
            decorators: [
              { title: 'Negrito', value: 'strong' },
              { title: 'Itálico', value: 'em' },
            ],
            annotations: [
              defineArrayMember({
                name: 'link',
                title: 'Link',
                type: 'object',
                fields: [
                  defineField({
                    name: 'href',
                    title: 'Endereço',
                    description:
                      'Um caminho do site ("/p/onibus"), "#contato", https:// ou mailto:.',
                    type: 'string',
                    validation: (rule) =>
                      rule
                        .required()
                        .max(300)
                        .regex(/^(https:\/\/|\/|#|mailto:)/, {
                          name: 'caminho, https:// ou mailto:',
                        }),
                  }),
                ],
              }),
            ],
          },
        }),
        defineArrayMember({
          type: 'image',
          name: 'image',
          title: 'Imagem',
          options: { hotspot: true },
          fields: [
            defineField({
              name: 'alt',
              title: 'Texto alternativo',
              description: 'Em português: o que a imagem mostra, para quem não pode vê-la.',
              type: 'string',
              validation: (rule) => [
                rule.required().error('Descreva a imagem: o texto alternativo é obrigatório.'),
                rule.max(ALT_MAX_LENGTH),
              ],
            }),
          ],
        }),
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

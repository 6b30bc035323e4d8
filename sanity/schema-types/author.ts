import { defineField, defineType } from 'sanity'

import { imageField, requiredString } from './objects'

// Who signs an article. A team signs as an organisation, so the structured data never presents
// a team as a person (docs/articles.md).
export const authorType = defineType({
  name: 'author',
  title: 'Autor',
  type: 'document',
  fields: [
    requiredString('name', 'Nome', 80),
    defineField({
      name: 'kind',
      title: 'Tipo',
      description:
        'Uma pessoa, ou uma equipe da empresa. Os buscadores recebem "Person" ou "Organization" conforme esta escolha.',
      type: 'string',
      options: {
        list: [
          { title: 'Pessoa', value: 'person' },
          { title: 'Equipe', value: 'team' },
        ],
        layout: 'radio',
      },
      initialValue: 'person',
      validation: (rule) => rule.required(),
    }),
    requiredString('role', 'Cargo ou função', 80, 'Mostrado ao lado do nome em cada artigo.'),
    imageField('photo', 'Foto (ou logotipo, para uma equipe)', { required: true }),
    defineField({
      name: 'bio',
      title: 'Minibiografia',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required().max(300),
    }),
  ],
  preview: {
    select: { title: 'name', subtitle: 'role', media: 'photo' },
  },
})

import { defineField, defineType } from 'sanity'

import { requiredString } from './objects'
import { routedPath } from '../lib/routed-type-rules'
import { routedSlugField } from './path-rules'

// A subject articles are filed under; each has its page at /conteudos/categoria/<slug>.
export const categoryType = defineType({
  name: 'category',
  title: 'Categoria',
  type: 'document',
  description:
    'Um assunto dos artigos. Cada categoria tem a sua página em /conteudos/categoria/<endereço>.',
  fields: [
    requiredString('title', 'Nome', 60),
    routedSlugField('category', {
      description:
        'A página fica em /conteudos/categoria/<endereço>. Minúsculas, números e hífens.',
    }),
    defineField({
      name: 'description',
      title: 'Descrição',
      description: 'Uma ou duas frases: aparece no topo da página da categoria e nos buscadores.',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required().max(200),
    }),
  ],
  preview: {
    select: { title: 'title', slug: 'slug.current' },
    prepare: ({ title, slug }) => ({ title, subtitle: routedPath('category', slug ?? '') }),
  },
})
